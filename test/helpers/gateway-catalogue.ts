import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A gateway catalogue (`OUTPOST_GATEWAY_CONFIG`) written to a temporary file; answers the file's path. */
export function gatewayCatalogue(yaml: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'outpost-catalogue-')), 'gateway.yaml');
  writeFileSync(file, yaml);
  return file;
}

/** A provider of a catalogue: its wire schema, the variable that holds its key, and its models, a YAML line each. */
export interface CatalogueProvider {
  name: string;
  schema: 'openai-chat' | 'openai-responses' | 'anthropic';
  keyEnv: string;
  models: string[];
}

/** A catalogue whose providers all call `upstream` (a scripted model server); answers the file's path. */
export function upstreamCatalogue(upstream: { baseURL: string }, providers: CatalogueProvider[]): string {
  const provider = ({ name, schema, keyEnv, models }: CatalogueProvider) =>
    [`  ${name}:`, `    base_url: ${upstream.baseURL}`, `    schema: ${schema}`, `    api_key_env: ${keyEnv}`]
      .concat('    models:', ...models.map((model) => `      ${model}`))
      .join('\n');
  return gatewayCatalogue(['providers:', ...providers.map(provider), ''].join('\n'));
}
