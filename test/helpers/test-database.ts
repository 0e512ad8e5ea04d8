import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';

/** What the global setup chose, handed to every test file through the environment. */
export interface TestDatabaseInfo {
  /** True when the run uses the embedded PostgreSQL (no server answered, or OUTPOST_TEST_EMBEDDED=1). */
  embedded: boolean;
  /** A URL of the server's maintenance database, for CREATE/DROP DATABASE. */
  adminUrl: string;
  /** The migrated template each test database is cloned from. */
  template: string;
  /** Prefix of the databases this run creates, so the teardown can drop leftovers. */
  runPrefix: string;
}

export const LOCAL_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';
const ENV_KEY = 'OUTPOST_TEST_DATABASE';

export function readInfo(): TestDatabaseInfo {
  const raw = process.env[ENV_KEY];
  if (!raw) throw new Error('the jest global setup did not run');
  return JSON.parse(raw) as TestDatabaseInfo;
}

export function writeInfo(info: TestDatabaseInfo): void {
  process.env[ENV_KEY] = JSON.stringify(info);
}

export async function answers(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 1_500 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function admin<T>(adminUrl: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The rows of one statement on the database at `url`, on a connection of its own. */
export async function query<T = Record<string, any>>( // eslint-disable-line @typescript-eslint/no-explicit-any
  url: string,
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  return admin(url, async (client) => (await client.query(text, params)).rows as T[]);
}

/** The template's name changes with the migrations, so an edited migration never meets a stale template. */
export function templateName(): string {
  const dir = join(__dirname, '..', '..', 'src', 'database', 'migrations');
  const hash = createHash('sha256').update(__dirname);
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith('.ts'))
    .sort())
    hash.update(file).update(readFileSync(join(dir, file)));
  return `outpost_tpl_${hash.digest('hex').slice(0, 16)}`;
}

export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A fresh database cloned from the migrated template: each test file gets its own. */
export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const info = readInfo();
  const name = `${info.runPrefix}${randomBytes(4).toString('hex')}`;
  for (let attempt = 0; ; attempt++) {
    try {
      await admin(info.adminUrl, (client) =>
        client.query(`CREATE DATABASE "${name}" TEMPLATE "${info.template}"`),
      );
      break;
    } catch (error) {
      // Two clones at the same instant: "source database is being accessed by other users". Try again.
      if (attempt > 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
    }
  }
  return {
    url: databaseUrl(info.adminUrl, name),
    drop: () =>
      admin(info.adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}

/** An empty database (no migrations), for tests of start-up itself. */
export async function createEmptyDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const info = readInfo();
  const name = `${info.runPrefix}empty_${randomBytes(4).toString('hex')}`;
  await admin(info.adminUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  return {
    url: databaseUrl(info.adminUrl, name),
    drop: () =>
      admin(info.adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}
