import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { basic, TEST_PASSWORD, TestApp } from '../../helpers/test-app';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { api, EventLog, scriptedProject, startScripted, stopScripted } from '../../helpers/prompt';

const run = promisify(execFile);
type Out = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('v2 operations the released SDK calls that answered 404: provider.get, integration.get, session.wait, permissions, fs.read, pty.create', () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let log: EventLog;
  let project: string;
  let sessionID: string;
  let out: Out;

  beforeAll(async () => {
    ({ t, server, log } = await startScripted());
    project = scriptedProject(server, { 'src/main.ts': 'export const main = 1;\n' });
    sessionID = await api(t).createSession(project, {
      permissions: [{ action: 'bash', resource: 'make *', effect: 'ask' }],
    });
    const { stdout } = await run(process.execPath, [
      join(__dirname, 'sdk-v2-more-client.mjs'),
      t.url,
      TEST_PASSWORD,
      project,
      sessionID,
    ]);
    out = JSON.parse(stdout) as Out;
  });
  afterAll(() => stopScripted({ t, server }));

  it('provider.get answers one provider without credentials, 404 for an unknown one; integration.get is 404', () => {
    expect(out.provider).toMatchObject({
      status: 200,
      data: { location: { directory: project }, data: { id: 'scripted', api: { url: server.baseURL } } },
    });
    expect(JSON.stringify(out.provider)).not.toContain('sk-scripted');
    expect(out.missingProvider).toMatchObject({ status: 404, error: { _tag: 'ProviderNotFoundError' } });
    expect(out.integration).toMatchObject({ status: 404, error: { _tag: 'IntegrationNotFoundError' } });
  });

  it("session.permission.create answers the session's rules, opening a request to answer for ask; session.permission.get reads it", async () => {
    expect(out.allowed).toMatchObject({ status: 200, data: { data: { effect: 'allow' } } });
    expect(out.asked).toMatchObject({
      status: 200,
      data: { data: { effect: 'ask', id: expect.stringMatching(/^per_/) } },
    });
    expect(out.pending).toMatchObject({
      status: 200,
      data: { data: { id: out.asked.data.data.id, permission: 'bash', patterns: ['make deploy'] } },
    });
    const a = api(t);
    const replied = await a.reply(sessionID, out.asked.data.data.id, 'reject');
    expect(replied.status).toBe(204);
    expect((await a.get(`/api/session/${sessionID}/permission`)).body.data).toEqual([]);
  });

  it('session.wait answers at once when idle, and once the run ends when busy', async () => {
    expect(out.wait.status).toBe(204);
    const a = api(t);
    server.script({ text: ['slow answer'], delayMs: 300 });
    await a.prompt(sessionID, { text: 'take your time' });
    const waited = await a.post(`/api/session/${sessionID}/wait`);
    expect(waited.status).toBe(204);
    expect(log.of(sessionID, ['session.idle']).length).toBeGreaterThan(0);
    expect((await a.get('/api/session/active')).body.data[sessionID]).toBeUndefined();
  });

  it('fs.read sends a file of the location and refuses paths outside it; pty.create and v1 share are clear refusals', async () => {
    const read = await t.http
      .get(`/api/fs/read/src/main.ts?location[directory]=${encodeURIComponent(project)}`)
      .set('authorization', basic());
    expect(read.status).toBe(200);
    expect(read.text).toBe('export const main = 1;\n');
    const outside = await t.http
      .get(`/api/fs/read/..%2F..%2Fetc%2Fpasswd?location[directory]=${encodeURIComponent(project)}`)
      .set('authorization', basic());
    expect(outside.status).toBe(400);
    expect(out.ptyCreate).toMatchObject({
      status: 501,
      error: { _tag: 'NotSupportedError', operation: 'pty.create' },
    });
    const share = await t.http
      .post(`/session/${sessionID}/share?directory=${encodeURIComponent(project)}`)
      .set('authorization', basic());
    expect(share.status).toBe(501);
    expect(JSON.stringify(share.body)).toContain('share');
  });
});
