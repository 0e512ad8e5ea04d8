import { admin, readInfo } from './test-database';

/** Drops any database of this run that a crashed test file left behind. */
export default async function globalTeardown(): Promise<void> {
  const info = readInfo();
  if (info.mode !== 'postgres') return;
  await admin(info.adminUrl!, async (client) => {
    const left = await client.query('SELECT datname FROM pg_database WHERE datname LIKE $1', [
      `${info.runPrefix}%`,
    ]);
    for (const row of left.rows as Array<{ datname: string }>) {
      await client.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
    }
  });
}
