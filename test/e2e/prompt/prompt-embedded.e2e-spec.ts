import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { basic, createTestApp, TestApp } from '../../helpers/test-app';
import { api, EventLog, outline, scriptedProject } from './helpers';

describe('session.prompt on the embedded database (PGlite)', () => {
  let t: TestApp;
  let server: ScriptedModelServer;

  beforeAll(async () => {
    server = await ScriptedModelServer.start();
    t = await createTestApp({ embedded: true });
  });

  afterAll(async () => {
    await t.close();
    await server.close();
  });

  it('runs a step, records usage and outcome, and deletes the session afterwards', async () => {
    const log = new EventLog(t);
    const a = api(t);
    const project = scriptedProject(server, { 'a.txt': 'alpha\n' });
    const sessionID = await a.createSession(project);
    server.script(
      { toolCalls: [{ name: 'read', input: { filePath: 'a.txt' } }], usage: { input: 10, output: 1 } },
      { text: 'alpha it is', usage: { input: 20, output: 2 } },
    );
    expect((await a.prompt(sessionID, { text: 'what is in a.txt?' })).status).toBe(200);
    expect(
      (await log.next('session.idle', (d: { sessionID?: string }) => d.sessionID === sessionID)).data,
    ).toEqual({ sessionID, outcome: 'succeeded' });
    const session = await a.session(sessionID);
    expect(session).toMatchObject({ outcome: 'succeeded', tokens: { input: 30, output: 3 } });
    expect(outline(await a.messages(sessionID))).toEqual([
      'user:what is in a.txt?',
      'assistant',
      'assistant',
    ]);
    expect((await t.http.delete(`/api/session/${sessionID}`).set('authorization', basic())).status).toBe(204);
  });
});
