import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A gateway catalogue (`OUTPOST_GATEWAY_CONFIG`) written to a temporary file; answers the file's path. */
export function gatewayCatalogue(yaml: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'outpost-catalogue-')), 'gateway.yaml');
  writeFileSync(file, yaml);
  return file;
}
