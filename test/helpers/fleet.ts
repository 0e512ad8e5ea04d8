import { INestApplication } from '@nestjs/common';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addressOf, bootNode, NodeOptions } from './boot-node';
import { startNginx } from './nginx';
import { TestClock } from './test-clock';

export interface Fleet {
  /** nginx in front of the nodes. */
  url: string;
  /** The nodes after the first. */
  nodes: INestApplication[];
  close(): Promise<void>;
}

/** `OUTPOST_TEST_FLEET=<n>`: how many nodes each test app has (1 without it). */
export function fleetSize(): number {
  const size = Number(process.env.OUTPOST_TEST_FLEET ?? '1');
  if (!Number.isInteger(size) || size < 1)
    throw new Error(`OUTPOST_TEST_FLEET: a whole number of nodes, not ${size}`);
  return size;
}

/**
 * With `OUTPOST_TEST_FLEET=<n>`, a test app is n nodes on its one database behind a real nginx, run as
 * docs/operations.md runs a fleet: the first node serves every surface, the others only the console and the gateway
 * (each with its own data folder), and nginx balances `/console`, `/inference` and `/health` round robin across all
 * of them, so a client's consecutive requests land on different nodes; the rest goes to the first node (the
 * instance is one per machine). The nodes are Nest applications in the test's process sharing its clock; the
 * fleet test (test/e2e/fleet) runs them as separate processes.
 */
export async function fleetOf(
  first: INestApplication,
  env: Record<string, string | undefined>,
  clock: TestClock,
  options: NodeOptions,
): Promise<Fleet | undefined> {
  const surfaces = (env.OUTPOST_SURFACES ?? 'console,inference')
    .split(',')
    .filter((surface) => surface !== 'instance')
    .join(',');
  if (fleetSize() === 1 || !surfaces) return undefined;
  const dataDirs: string[] = [];
  const nodes: INestApplication[] = [];
  for (let i = 1; i < fleetSize(); i++) {
    const dataDir = mkdtempSync(join(tmpdir(), `outpost-test-node${i}-`));
    dataDirs.push(dataDir);
    // A fleet shares one secret (OUTPOST_SECRET_KEY); without it, the first node's generated one.
    const generated = join(env.OUTPOST_DATA_DIR!, 'secret-key');
    if (existsSync(generated)) copyFileSync(generated, join(dataDir, 'secret-key'));
    const nodeEnv = {
      ...env,
      OUTPOST_SURFACES: surfaces,
      OUTPOST_DATA_DIR: dataDir,
      OUTPOST_CONFIG_DIR: join(dataDir, 'config'),
    };
    nodes.push(await bootNode(nodeEnv, clock, options));
  }
  const proxy = await startNginx([first, ...nodes].map(addressOf), undefined, { instance: addressOf(first) });
  return {
    url: proxy.url,
    nodes,
    async close() {
      await proxy.stop();
      for (const node of nodes) await node.close();
      for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * `read()` once a change just made reached this node's caches: at once on one node; behind a balancer the change may
 * have been made on another node, whose notice arrives within a second. Gives up after two seconds with the last
 * outcome (a value, or the error thrown).
 */
export async function whenSeen<T>(read: () => Promise<T>, seen: (outcome: T | Error) => boolean): Promise<T> {
  const giveUp = Date.now() + 2_000;
  for (;;) {
    const outcome = await read().catch((error: Error) => error);
    if (seen(outcome) || Date.now() > giveUp) {
      if (outcome instanceof Error) throw outcome;
      return outcome;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
