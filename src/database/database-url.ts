import { join } from 'node:path';
import { embeddedDatabaseUrl } from './embedded';

/** Where a process's data lives: `DATABASE_URL`, else the embedded server of the data folder. */
export interface DatabaseChoice {
  url: string;
  /** Set when the embedded server serves: its cluster folder. */
  embeddedDir?: string;
}

export async function chooseDatabase(
  databaseUrl: string | undefined,
  dataDir: string,
  log?: (line: string) => void,
): Promise<DatabaseChoice> {
  if (databaseUrl) return { url: databaseUrl };
  return { url: await embeddedDatabaseUrl(dataDir, log), embeddedDir: join(dataDir, 'postgres') };
}
