import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectDir } from '../../helpers/project-dir';
import { basic, createTestApp, TestApp } from '../../helpers/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** An OpenAI-compatible provider with one model; never called here. */
const provider = (name: string) => ({
  npm: '@ai-sdk/openai-compatible',
  name,
  options: { baseURL: 'http://127.0.0.1:9/v1' },
  models: { m: {} },
});

describe("opencode's config sources: global, OPENCODE_CONFIG, every directory up to the repository root, OPENCODE_CONFIG_CONTENT", () => {
  let t: TestApp;
  let root: string;
  let location: string;

  beforeAll(async () => {
    const xdg = mkdtempSync(join(tmpdir(), 'outpost-xdg-'));
    mkdirSync(join(xdg, 'opencode'));
    // opencode.jsonc with comments and a trailing comma, as opencode reads it.
    writeFileSync(
      join(xdg, 'opencode', 'opencode.jsonc'),
      `{\n  // the machine's own\n  "provider": { "globalp": ${JSON.stringify(provider('Global'))} },\n}\n`,
    );
    const extra = join(mkdtempSync(join(tmpdir(), 'outpost-extra-')), 'team.json');
    writeFileSync(extra, JSON.stringify({ provider: { teamp: provider('Team') }, model: 'teamp/m' }));
    root = projectDir({
      'opencode.json': JSON.stringify({
        provider: { rootp: provider('Root'), offp: provider('Off') },
        command: { hello: { template: '{file:./prompts/hello.txt}', description: 'greets' } },
      }),
      'prompts/hello.txt': 'Say "hello" to\nthe team\n',
      'packages/app/opencode.json': JSON.stringify({
        provider: { appp: provider('App') },
        disabled_providers: ['offp'],
        command: { broken: { template: '{file:./missing.txt}' } },
      }),
      'packages/app/src/a.ts': 'export const a = 1;\n',
    });
    execFileSync('git', ['init', '-q'], { cwd: root });
    location = join(root, 'packages', 'app');
    t = await createTestApp({
      env: {
        XDG_CONFIG_HOME: xdg,
        OPENCODE_CONFIG: extra,
        OPENCODE_CONFIG_CONTENT: JSON.stringify({ model: 'appp/m' }),
      },
    });
  });
  afterAll(() => t.close());

  const get = (path: string, directory: string) =>
    t.http.get(`${path}?directory=${encodeURIComponent(directory)}`).set('authorization', basic());

  it('loads the providers of every source; disabled_providers takes one away', async () => {
    const res = await get('/config/providers', location);
    expect(res.status).toBe(200);
    const ids = (res.body.providers as Json[]).map((p) => p.id).sort();
    expect(ids).toEqual(['appp', 'globalp', 'rootp', 'teamp']);
    // The project's root alone: the sub-directory's file (and its disabled_providers) does not apply.
    const atRoot = (await get('/config/providers', root)).body.providers as Json[];
    expect(atRoot.map((p) => p.id).sort()).toEqual(['globalp', 'offp', 'rootp', 'teamp']);
  });

  it('puts {file:…} contents in, and a missing file leaves the rest of the config loaded', async () => {
    const commands = (await get('/command', location)).body as Json[];
    const hello = commands.find((c) => c.name === 'hello');
    expect(hello).toMatchObject({ template: 'Say "hello" to\nthe team', description: 'greets' });
    // The reference to a missing file leaves that command's template empty, which is reported and not loaded;
    // the file's provider (first test) and everything else still load.
    expect(commands.find((c) => c.name === 'broken')).toBeUndefined();
  });

  it('OPENCODE_CONFIG_CONTENT goes over every file: its model wins over OPENCODE_CONFIG', async () => {
    const config = (await get('/config', location)).body as Json;
    expect(config.model).toBe('appp/m');
  });
});
