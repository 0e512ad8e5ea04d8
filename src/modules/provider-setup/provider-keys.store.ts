import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writePrivateFile } from '@/common/fs/private-file';

/** `$OUTPOST_DATA_DIR/provider-keys.json` (mode 0600): `{ "<reference name>": "<key>" }`. */
export const KEYS_FILE = 'provider-keys.json';

export function readKeys(dataDir: string): Record<string, string> {
  const file = join(dataDir, KEYS_FILE);
  if (!existsSync(file)) return {};
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** When the keys file last changed (0: there is none), so a reader sees another process's writes. */
export function keysChanged(dataDir: string): number {
  return statSync(join(dataDir, KEYS_FILE), { throwIfNoEntry: false })?.mtimeMs ?? 0;
}

export function writeKey(dataDir: string, name: string, key: string): void {
  writeKeys(dataDir, { ...readKeys(dataDir), [name]: key });
}

export function removeKey(dataDir: string, name: string): void {
  const keys = readKeys(dataDir);
  if (!Object.hasOwn(keys, name)) return;
  delete keys[name];
  writeKeys(dataDir, keys);
}

function writeKeys(dataDir: string, keys: Record<string, string>): void {
  writePrivateFile(join(dataDir, KEYS_FILE), `${JSON.stringify(keys, null, 2)}\n`);
}
