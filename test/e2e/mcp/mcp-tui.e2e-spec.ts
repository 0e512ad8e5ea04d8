import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MCP_TEST_LOCAL } from '../../helpers/mcp-server';
import { opencodeEnv, Tui } from '../../helpers/opencode';
import { projectDir } from '../../helpers/project-dir';
import { providerConfig } from '../../helpers/prompt';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { createTestApp, TestApp } from '../../helpers/test-app';

jest.setTimeout(180_000);

const ARTIFACTS = join(__dirname, '..', '..', 'artifacts', 'opencode');

describe("the released TUI attached to Outpost shows the location's MCP servers", () => {
  let t: TestApp;
  let model: ScriptedModelServer;
  let tui: Tui | undefined;
  let project: string;

  beforeAll(async () => {
    model = await ScriptedModelServer.start();
    const mcp = {
      tools: MCP_TEST_LOCAL,
      broken: { type: 'local', command: ['outpost-no-such-command-for-mcp'] },
    };
    project = projectDir({ 'opencode.json': providerConfig(model, { mcp }) });
    t = await createTestApp({ env: { OUTPOST_DEFAULT_DIRECTORY: project } });
  });
  afterAll(async () => {
    await tui?.stop();
    await t.close();
    await model.close();
  });

  it('/status lists each server with its status', async () => {
    tui = new Tui(['attach', t.url, '--dir', project], opencodeEnv(), project);
    await tui.waitFor('Ask anything');
    tui.type('/status');
    await tui.waitFor('/status');
    tui.type('\r');
    const screen = await tui.waitFor('2 MCP Servers');
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(join(ARTIFACTS, 'tui-mcp-status.txt'), screen);
    expect(screen).toMatch(/• tools +Connected/);
    expect(screen).toContain('broken command not found: outpost-no-such-command-for-');
  });
});
