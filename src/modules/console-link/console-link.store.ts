import { existsSync, readFileSync, rmSync } from 'node:fs';
import { writePrivateFile } from '@/common/fs/private-file';
import { join } from 'node:path';
import { ConsoleConfig, consoleConfigAnswer } from './console-answers';

/** What `outpost login` keeps in `$OUTPOST_DATA_DIR/console.json` (mode 0600). */
export interface ConsoleLink {
  /** The console's origin, e.g. `https://outpost.example.com`. */
  consoleUrl: string;
  orgId: string | null;
  /** The workspace's name as the console lists it, when it said (older files have none). */
  orgName?: string;
  accessToken: string;
  refreshToken: string;
  /** Epoch ms when the access token expires. */
  expiresAt: number;
  /** Epoch ms of the sign-in. */
  linkedAt: number;
  email?: string;
  /** Set when the console refused the refresh token: the person must run `outpost login` again. */
  signedOut?: boolean;
}

export const LINK_FILE = 'console.json';
/** The last workspace config that came from the console, so an outage changes nothing. */
export const CONFIG_FILE = 'console-config.json';

const writePrivate = writePrivateFile;

export function readLink(dataDir: string): ConsoleLink | null {
  const file = join(dataDir, LINK_FILE);
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as ConsoleLink;
  } catch {
    return null;
  }
}

export function writeLink(dataDir: string, link: ConsoleLink): void {
  writePrivate(join(dataDir, LINK_FILE), `${JSON.stringify(link, null, 2)}\n`);
}

export function removeLink(dataDir: string): void {
  rmSync(join(dataDir, LINK_FILE), { force: true });
  rmSync(join(dataDir, CONFIG_FILE), { force: true });
}

export interface SavedConfig {
  etag: string;
  fetchedAt: number;
  /** The parts of the console's `/console/api/v2/config` document an instance uses. */
  config: ConsoleConfig;
}

/** The saved copy, checked as the console's answer was (the file may be old or edited); null when unusable. */
export function readSavedConfig(dataDir: string): SavedConfig | null {
  try {
    const saved = JSON.parse(readFileSync(join(dataDir, CONFIG_FILE), 'utf8')) as Partial<SavedConfig>;
    const config = consoleConfigAnswer('(saved)', saved.config);
    return { etag: String(saved.etag ?? ''), fetchedAt: Number(saved.fetchedAt) || 0, config };
  } catch {
    return null;
  }
}

export function writeSavedConfig(dataDir: string, saved: SavedConfig): void {
  writePrivate(join(dataDir, CONFIG_FILE), `${JSON.stringify(saved)}\n`);
}
