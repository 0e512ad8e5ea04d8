import { spawn } from 'node:child_process';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signup } from '../../helpers/console';
import { approve } from '../../helpers/device';
import { createTestApp, TestApp } from '../../helpers/test-app';
import { OPENCODE, opencode, opencodeEnv } from '../../helpers/opencode';

jest.setTimeout(180_000);

const PROVIDER = {
  name: 'Team gateway',
  env: ['TEAM_GATEWAY_KEY'],
  package: 'aisdk:@ai-sdk/openai-compatible',
  settings: { baseURL: 'https://gateway.example.com/v1' },
  models: { 'team-model': { name: 'Team Model' } },
};

describe('opencode console login (the released 1.18.33 CLI) against the Outpost console', () => {
  let t: TestApp;

  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('completes the device flow, then lists the workspace and loads its providers from /console/api/config', async () => {
    const owner = await signup(t);
    const saved = await owner.put(`/console/api/orgs/${owner.org}/config`, { providers: { team: PROVIDER } });
    expect(saved.status).toBe(200);

    const env = opencodeEnv();
    const login = spawn(OPENCODE, ['console', 'login', `${t.url}/console`], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    login.stdout.on('data', (chunk) => (output += chunk));
    login.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => login.on('exit', resolve));
    const deadline = Date.now() + 60_000;
    let code: string | undefined;
    while (!(code = /Enter code:\s*([A-Z0-9]{4}-[A-Z0-9]{4})/.exec(output)?.[1])) {
      if (Date.now() > deadline) throw new Error(`no user code in:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(output).toContain(`${t.url}/console/device?user_code=${code}`);

    await approve(t, owner, code, owner.org);
    const timer = setTimeout(() => login.kill('SIGKILL'), 60_000);
    expect({ code: await exited, output }).toMatchObject({ code: 0 });
    clearTimeout(timer);

    const workspace = ((await owner.get('/console/api/orgs')).body as Array<{ id: string; name: string }>)[0];
    const orgs = await opencode(['console', 'orgs'], { env });
    // The CLI writes its listing to stderr (its UI stream).
    expect({ code: orgs.code, output: orgs.stdout + orgs.stderr }).toMatchObject({
      code: 0,
      output: expect.stringContaining(workspace.name),
    });

    // The CLI's own config now carries the workspace's provider, fetched from /console/api/config.
    const project = realpathSync(mkdtempSync(join(tmpdir(), 'outpost-opencode-project-')));
    const config = await opencode(['debug', 'config'], { env, cwd: project });
    expect(config.code).toBe(0);
    const provider = (JSON.parse(config.stdout) as { provider?: Record<string, Record<string, unknown>> })
      .provider?.team;
    expect(provider).toMatchObject({
      name: 'Team gateway',
      env: ['TEAM_GATEWAY_KEY'],
      npm: '@ai-sdk/openai-compatible',
      options: { baseURL: 'https://gateway.example.com/v1' },
      models: { 'team-model': { name: 'Team Model' } },
    });
    // And the console's own MCP server (debug config hides header values; `mcp list` connects with them).
    const mcp = (JSON.parse(config.stdout) as { mcp?: Record<string, Record<string, unknown>> }).mcp?.outpost;
    expect(mcp).toMatchObject({
      type: 'remote',
      url: `${t.url}/console/mcp`,
      headers: { Authorization: expect.any(String), 'x-org-id': expect.any(String) },
    });
    const listed = await opencode(['mcp', 'list'], { env, cwd: project });
    // `●  ✓ outpost connected` (with colour codes) when the server answered initialize and tools/list.
    expect(listed.stdout + listed.stderr).toMatch(/✓ outpost\W+(\[\d+m)?connected/);
  });
});
