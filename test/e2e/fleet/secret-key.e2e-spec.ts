import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '@/database/data-source.options';
import { SecretFingerprintRepository } from '@/modules/console-access/secret-fingerprint.repository';
import { bearer, serviceAccountKey, signup } from '../../helpers/console';
import { freePort, ServerProcess, startServer, waitForHealth } from '../../helpers/processes';
import { TestApp } from '../../helpers/test-app';
import { createEmptyDatabase, createTestDatabase, query } from '../../helpers/test-database';

jest.setTimeout(120_000);

const SECRET = 'secret-key-test-first-0123456789abcdef';
const OTHER = 'secret-key-test-other-0123456789abcdef';

const REFUSAL =
  'outpost: cannot start: OUTPOST_SECRET_KEY differs from the secret this database was set up with (the fingerprint ' +
  'stored in it does not match); give every node the same OUTPOST_SECRET_KEY, or, to change the secret on purpose ' +
  '(every API key, user token and stored connection credential stops working), start one node once with ' +
  'OUTPOST_SECRET_KEY_ROTATE=1';

const started: ServerProcess[] = [];
const databases: Array<{ drop: () => Promise<void> }> = [];
afterAll(async () => {
  for (const server of started) server.child.kill('SIGKILL');
  await Promise.all(started.map((server) => server.exited));
  for (const database of databases) await database.drop();
});

/** A console and gateway node on `databaseUrl`, with its own data folder and `env` added. */
async function node(databaseUrl: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const server = startServer({
    DATABASE_URL: databaseUrl,
    PORT: String(await freePort()),
    OUTPOST_DATA_DIR: mkdtempSync(join(tmpdir(), 'outpost-secret-key-')),
    OUTPOST_SURFACES: 'console,inference',
    ...env,
  });
  started.push(server);
  return server;
}

async function stop(server: ServerProcess): Promise<void> {
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
}

/** The node exited with 1, and standard error is the one line: no stack, no log line of level error or fatal. */
async function expectRefused(server: ServerProcess, line: string): Promise<void> {
  const running = new Promise<'still running'>((resolve) =>
    setTimeout(() => resolve('still running'), 30_000).unref(),
  );
  expect(await Promise.race([server.exited, running])).toBe(1);
  expect(server.stderr()).toBe(`${line}\n`);
  const levels = server
    .output()
    .split('\n')
    .filter((entry) => entry && entry !== line)
    .map((entry) => (JSON.parse(entry) as { level: number }).level);
  expect(levels.filter((level) => level >= 40)).toEqual([]);
}

async function fingerprints(databaseUrl: string): Promise<string[]> {
  const rows = await query<{ fingerprint: string }>(
    databaseUrl,
    'SELECT fingerprint FROM secret_fingerprint',
  );
  return rows.map((row) => row.fingerprint);
}

/**
 * Every node of a fleet must have the same secret key (it peppers key hashes and encrypts credentials): the database
 * keeps a fingerprint of it, and a node with another one refuses to start in one line instead of answering 401.
 */
describe('the secret key of a fleet', () => {
  it('a node with another OUTPOST_SECRET_KEY (or another generated secret) refuses to start; with the same one, keys made on the first work on it', async () => {
    const database = await createTestDatabase();
    databases.push(database);
    const first = await node(database.url, { OUTPOST_SECRET_KEY: SECRET });
    await waitForHealth(first);
    const [stored] = await fingerprints(database.url);
    expect(stored).toMatch(/^[0-9a-f]{64}$/);
    // The fingerprint is not the secret, nor its plain SHA-256 or HMAC of anything obvious: just not the secret.
    expect(stored).not.toContain(Buffer.from(SECRET).toString('hex'));

    await expectRefused(await node(database.url, { OUTPOST_SECRET_KEY: OTHER }), REFUSAL);
    // A node without OUTPOST_SECRET_KEY whose data folder has a secret of its own (generated on an earlier start).
    const ownDir = mkdtempSync(join(tmpdir(), 'outpost-secret-key-own-'));
    writeFileSync(join(ownDir, 'secret-key'), 'a-generated-secret-of-its-own-0123456789abcdef\n');
    await expectRefused(
      await node(database.url, { OUTPOST_DATA_DIR: ownDir }),
      REFUSAL.replace(
        'OUTPOST_SECRET_KEY differs from',
        `OUTPOST_SECRET_KEY is unset and this node's secret (${join(ownDir, 'secret-key')}) differs from`,
      ),
    );
    expect(await fingerprints(database.url)).toEqual([stored]);

    const second = await node(database.url, { OUTPOST_SECRET_KEY: SECRET });
    await waitForHealth(second);
    const owner = await signup({ url: first.url, http: request(first.url) } as TestApp);
    const { key } = await serviceAccountKey(owner, owner.org);
    const user = await request(second.url).get('/console/api/user').set('authorization', bearer(key));
    expect(user.status).toBe(200);
    await stop(second);
    await stop(first);
  });

  it('OUTPOST_SECRET_KEY_ROTATE=1 replaces the fingerprint (with a warning); then a node with the old secret is refused', async () => {
    const database = await createTestDatabase();
    databases.push(database);
    const old = await node(database.url, { OUTPOST_SECRET_KEY: SECRET });
    await waitForHealth(old);
    const owner = await signup({ url: old.url, http: request(old.url) } as TestApp);
    const { key } = await serviceAccountKey(owner, owner.org);
    const before = await fingerprints(database.url);
    await stop(old);

    const rotating = await node(database.url, { OUTPOST_SECRET_KEY: OTHER, OUTPOST_SECRET_KEY_ROTATE: '1' });
    await waitForHealth(rotating);
    const after = await fingerprints(database.url);
    expect(after).toHaveLength(1);
    expect(after).not.toEqual(before);
    const warning = rotating
      .output()
      .split('\n')
      .filter((line) => line.includes('OUTPOST_SECRET_KEY_ROTATE'))
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(warning).toEqual([
      expect.objectContaining({ level: 40, msg: expect.stringContaining('fingerprint replaced') }),
    ]);
    // The key made under the old secret no longer works.
    const refused = await request(rotating.url).get('/console/api/user').set('authorization', bearer(key));
    expect(refused.status).toBe(401);
    await stop(rotating);

    await expectRefused(await node(database.url, { OUTPOST_SECRET_KEY: SECRET }), REFUSAL);
    // The new secret starts without the opt-in.
    const next = await node(database.url, { OUTPOST_SECRET_KEY: OTHER });
    await waitForHealth(next);
    expect(await fingerprints(database.url)).toEqual(after);
    await stop(next);
  });

  it('nodes starting at the same moment with the same new secret on a fresh database all start', async () => {
    for (const fresh of [await createTestDatabase(), await createEmptyDatabase()]) {
      databases.push(fresh);
      const nodes = await Promise.all([0, 1, 2].map(() => node(fresh.url, { OUTPOST_SECRET_KEY: SECRET })));
      await Promise.all(nodes.map((server) => waitForHealth(server, 60_000)));
      expect(await fingerprints(fresh.url)).toHaveLength(1);
      for (const server of nodes) await stop(server);
    }
  });

  it('the first fingerprint stored wins when many nodes store theirs at the same instant', async () => {
    const database = await createTestDatabase();
    databases.push(database);
    const sources = await Promise.all(
      Array.from({ length: 8 }, () => new DataSource(dataSourceOptions(database.url)).initialize()),
    );
    try {
      for (let round = 0; round < 10; round++) {
        await query(database.url, 'DELETE FROM secret_fingerprint');
        const offered = sources.map((_, i) => `${round}${i}`.padStart(64, 'a'));
        const seen = await Promise.all(
          sources.map((source, i) => new SecretFingerprintRepository(source).storeOrRead(offered[i])),
        );
        expect(new Set(seen).size).toBe(1);
        expect(offered).toContain(seen[0]);
        expect(await fingerprints(database.url)).toEqual([seen[0]]);
      }
    } finally {
      await Promise.all(sources.map((source) => source.destroy()));
    }
  });

  it('an instance-only node does not use the secret key: it starts whatever the database holds', async () => {
    const database = await createTestDatabase();
    databases.push(database);
    const first = await node(database.url, { OUTPOST_SECRET_KEY: SECRET });
    await waitForHealth(first);
    const instance = await node(database.url, {
      OUTPOST_SECRET_KEY: OTHER,
      OUTPOST_SURFACES: 'instance',
      OUTPOST_PASSWORD: 'instance-password',
      OUTPOST_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'outpost-secret-key-config-')),
    });
    await waitForHealth(instance);
    await stop(instance);
    await stop(first);
  });
});
