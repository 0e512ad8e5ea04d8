import { INestApplication } from '@nestjs/common';
import { ChildProcess, fork } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RequestLog } from '../../src/modules/budgets/request-log';
import { UsageLedger } from '../../src/modules/budgets/usage-ledger';
import { addressOf } from './boot-node';
import { startNginx } from './nginx';
import { MAIN } from './processes';
import { TestClock } from './test-clock';

/** A node of a test app: the first (in the test's process) or another process of its fleet. */
export interface TestNode {
  url: string;
  pid: number;
  /** Writes what its usage ledger and request log hold now, as their next batch would. */
  flush(): Promise<void>;
  /** Stops taking connections and drops those open, as a node gone down; `listen()` brings it back on its port. */
  unlisten(): Promise<void>;
  listen(): Promise<void>;
}

export interface Fleet {
  /** nginx in front of the nodes. */
  url: string;
  /** The nodes after the first. */
  nodes: TestNode[];
  close(): Promise<void>;
}

/** `OUTPOST_TEST_FLEET=<n>`: how many nodes each test app has (1 without it). */
export function fleetSize(): number {
  const size = Number(process.env.OUTPOST_TEST_FLEET ?? '1');
  if (!Number.isInteger(size) || size < 1)
    throw new Error(`OUTPOST_TEST_FLEET: a whole number of nodes, not ${size}`);
  return size;
}

/** The first node, in the test's process. */
export function nodeOf(app: INestApplication): TestNode {
  const server = app.getHttpServer() as Server;
  const port = () => new URL(addressOf(app)).port;
  let closedPort = '';
  return {
    url: addressOf(app),
    pid: process.pid,
    async flush() {
      await app.get(UsageLedger).flush();
      await app.get(RequestLog).flush();
    },
    unlisten: () =>
      new Promise<void>((resolve) => {
        closedPort = port();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
    listen: () => new Promise<void>((resolve) => server.listen(Number(closedPort), '127.0.0.1', resolve)),
  };
}

/**
 * With `OUTPOST_TEST_FLEET=<n>`, a test app is n nodes on its one database behind a real nginx, run as
 * docs/operations.md runs a fleet: the first node serves every surface, the others — each its own process
 * (test/helpers/fleet-node.js) with its own data folder — only the console and the gateway, and nginx balances
 * `/console`, `/inference` and `/health` round robin across all of them, so a client's consecutive requests land on
 * different nodes; the rest goes to the first node (the instance is one per machine). Every node follows the
 * test's clock.
 */
export async function fleetOf(
  first: INestApplication,
  env: Record<string, string | undefined>,
  clock: TestClock,
): Promise<Fleet | undefined> {
  const surfaces = (env.OUTPOST_SURFACES ?? 'console,inference')
    .split(',')
    .filter((surface) => surface !== 'instance')
    .join(',');
  if (fleetSize() === 1 || !surfaces) return undefined;
  if (!existsSync(MAIN)) throw new Error('OUTPOST_TEST_FLEET runs dist/: npm run build first');
  const dataDirs: string[] = [];
  const clockFile = join(env.OUTPOST_DATA_DIR!, 'test-clock');
  clock.shareThrough(clockFile);
  const started: Array<Promise<ProcessNode>> = [];
  for (let i = 1; i < fleetSize(); i++) {
    const dataDir = mkdtempSync(join(tmpdir(), `outpost-test-node${i}-`));
    dataDirs.push(dataDir);
    // A fleet shares one secret (OUTPOST_SECRET_KEY); without it, the first node's generated one.
    const generated = join(env.OUTPOST_DATA_DIR!, 'secret-key');
    if (existsSync(generated)) copyFileSync(generated, join(dataDir, 'secret-key'));
    started.push(
      startNode({
        ...env,
        OUTPOST_SURFACES: surfaces,
        OUTPOST_DATA_DIR: dataDir,
        OUTPOST_CONFIG_DIR: join(dataDir, 'config'),
        OUTPOST_TEST_CLOCK_FILE: clockFile,
      }),
    );
  }
  const outcomes = await Promise.allSettled(started);
  const nodes = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  const stopAll = async () => {
    await Promise.all(nodes.map((node) => node.close()));
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  };
  const failed = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  const proxy = await startNginx([addressOf(first), ...nodes.map((node) => node.url)], undefined, {
    instance: addressOf(first),
  });
  return {
    url: proxy.url,
    nodes,
    async close() {
      await proxy.stop();
      await stopAll();
    },
  };
}

type ProcessNode = TestNode & { close(): Promise<void> };

/** Starts test/helpers/fleet-node.js on `env` (over the test process's own) and waits for it to listen. */
function startNode(env: Record<string, string | undefined>): Promise<ProcessNode> {
  const merged: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...process.env, ...env }))
    if (value !== undefined) merged[key] = value;
  const child = fork(join(__dirname, 'fleet-node.js'), [], { env: merged, stdio: 'ignore' });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`a fleet node exited with ${code} before it listened`)));
    child.once('message', (message: { url?: string; failed?: string }) => {
      if (message.failed) return reject(new Error(`a fleet node did not start: ${message.failed}`));
      child.removeAllListeners('exit');
      resolve(processNode(child, message.url!));
    });
  });
}

function processNode(child: ChildProcess, url: string): ProcessNode {
  let next = 0;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ask = (command: string) =>
    new Promise<void>((resolve, reject) => {
      const id = ++next;
      const answered = (message: { id?: number; error?: string }) => {
        if (message.id !== id) return;
        child.off('message', answered);
        if (message.error) reject(new Error(`fleet node ${command}: ${message.error}`));
        else resolve();
      };
      child.on('message', answered);
      child.send({ id, command });
    });
  return {
    url,
    pid: child.pid!,
    flush: () => ask('flush'),
    unlisten: () => ask('unlisten'),
    listen: () => ask('listen'),
    async close() {
      if (child.exitCode === null && child.connected) {
        const killed = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await Promise.race([ask('close').catch(() => undefined), exited]);
        await exited;
        clearTimeout(killed);
      }
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
