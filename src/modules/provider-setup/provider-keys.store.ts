import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writePrivateFile } from '@/common/fs/private-file';

/** `$OUTPOST_DATA_DIR/provider-keys.json` (mode 0600): `{ "<reference name>": "<key>" }`. */
export const KEYS_FILE = 'provider-keys.json';

/** The `{env:NAME}` name a provider's key goes by: `OUTPOST_KEY_LOCAL_LLM` for `local-llm`. */
export function keyName(providerID: string): string {
  return `OUTPOST_KEY_${providerID.toUpperCase().replace(/-/g, '_')}`;
}

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

export function writeKey(dataDir: string, name: string, key: string): void {
  const keys = { ...readKeys(dataDir), [name]: key };
  writePrivateFile(join(dataDir, KEYS_FILE), `${JSON.stringify(keys, null, 2)}\n`);
}
