import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What a running PostgreSQL writes into `postmaster.pid` of its data folder. */
export interface Postmaster {
  pid: number;
  port: number;
  /** `ready` once it accepts connections; `starting` or `stopping` otherwise. */
  status: string;
}

/** The data folder's server if its process is alive (a stale file after a kill -9 answers undefined). */
export function runningPostmaster(dataDir: string): Postmaster | undefined {
  let lines: string[];
  try {
    lines = readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return undefined;
  }
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return undefined;
  return { pid, port: Number(lines[3]), status: (lines[7] ?? '').trim() };
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
