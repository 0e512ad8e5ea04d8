import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { MCP_TEST_LOCAL as LOCAL } from '../../helpers/mcp-server';
import { projectDir } from '../../helpers/project-dir';
import { providerConfig, startScripted, stopScripted } from '../../helpers/prompt';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { TEST_PASSWORD, TestApp } from '../../helpers/test-app';

const run = promisify(execFile);
type Out = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe("the released opencode SDK's MCP operations against Outpost", () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let out: Out;

  beforeAll(async () => {
    ({ t, server } = await startScripted());
    const mcp = { tools: LOCAL, off: { ...LOCAL, enabled: false } };
    const directory = projectDir({ 'opencode.json': providerConfig(server, { mcp }) });
    const client = join(__dirname, 'sdk-mcp-client.mjs');
    const { stdout } = await run(process.execPath, [
      client,
      t.url,
      TEST_PASSWORD,
      directory,
      JSON.stringify(LOCAL),
    ]);
    out = JSON.parse(stdout) as Out;
  });
  afterAll(() => stopScripted({ t, server }));

  it('mcp.status answers each server by name', () => {
    expect(out.status).toEqual({
      status: 200,
      data: { tools: { status: 'connected' }, off: { status: 'disabled' } },
    });
  });

  it('mcp.add answers every status with the new one; disconnect and connect answer true and change it', () => {
    expect(out.add).toMatchObject({ status: 200, data: { added: { status: 'connected' } } });
    expect(out.disconnect).toMatchObject({ status: 200, data: true });
    expect(out.afterDisconnect.data.added).toEqual({ status: 'disabled' });
    expect(out.connect).toMatchObject({ status: 200, data: true });
    expect(out.afterConnect.data.added).toEqual({ status: 'connected' });
  });

  it('an unknown server is a 404; the OAuth operations are a 400 with the reason as error', () => {
    expect(out.missing).toMatchObject({ status: 404 });
    expect(out.authStart).toMatchObject({
      status: 400,
      error: { data: { error: expect.stringContaining('OAuth') } },
    });
    expect(out.authRemove).toMatchObject({ status: 400 });
  });
});
