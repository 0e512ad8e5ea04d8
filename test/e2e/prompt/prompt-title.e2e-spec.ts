import { projectDir } from '../../helpers/project-dir';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { TestApp } from '../../helpers/test-app';
import {
  api,
  EventLog,
  FAST_RETRIES,
  pollUntil,
  providerConfig,
  startScripted,
  stopScripted,
} from '../../helpers/prompt';

type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('Session titles: the title agent names a session from its first prompt', () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let log: EventLog;

  beforeAll(async () => ({ t, server, log } = await startScripted({ env: FAST_RETRIES })));
  afterAll(() => stopScripted({ t, server }));

  it('asks the session model with the title prompt, writes the title once and announces it', async () => {
    const project = projectDir({ 'outpost.json': providerConfig(server) });
    const a = api(t);
    const sessionID = await a.createSession(project);
    const before = server.titleRequests.length;
    server.scriptTitle({ text: '"Fix the login redirect loop."' });
    server.script({ text: 'On it.' }, { text: 'Still on it.' });
    const mark = log.events.length;
    await a.prompt(sessionID, { text: 'The login page redirects forever, please fix it' });
    const updated = await log.next<Data>(
      'session.updated',
      (d) => d.sessionID === sessionID && d.info.title === 'Fix the login redirect loop',
      mark,
    );
    expect(updated.data.info.title).toBe('Fix the login redirect loop');
    await log.idle(sessionID, mark);

    const call = server.titleRequests[before];
    expect(call.body.model).toBe('small');
    expect(call.body.tools).toBeUndefined();
    const [system, user] = call.body.messages;
    expect(system.role).toBe('system');
    expect(system.content).toMatch(/^You write the title of a conversation/);
    expect(user).toMatchObject({ role: 'user' });
    expect(JSON.stringify(user.content)).toContain('The login page redirects forever, please fix it');
    expect((await a.session(sessionID)).title).toBe('Fix the login redirect loop');

    // The next prompt keeps the title: no second title call.
    await a.prompt(sessionID, { text: 'And the logout page too' });
    await log.idle(sessionID, log.events.length - 1);
    await pollUntil('the second run to end', async () => server.pending === 0);
    expect(server.titleRequests.length).toBe(before + 1);
    expect((await a.session(sessionID)).title).toBe('Fix the login redirect loop');
  });

  it('uses small_model from the config, and leaves a title the user gave alone', async () => {
    const project = projectDir({
      'outpost.json': providerConfig(server, { small_model: 'scripted/large' }),
    });
    const a = api(t);
    const sessionID = await a.createSession(project);
    const named = await a.createSession(project, { title: 'My own title' });
    const before = server.titleRequests.length;
    server.scriptTitle({ text: 'Rename the helpers' });
    server.script({ text: 'Done.' }, { text: 'Done too.' });
    const mark = log.events.length;
    await a.prompt(sessionID, { text: 'rename the helpers' });
    await log.next<Data>(
      'session.updated',
      (d) => d.sessionID === sessionID && d.info.title === 'Rename the helpers',
      mark,
    );
    expect(server.titleRequests[before].body.model).toBe('large');
    expect(server.requests.at(-1)!.body.model).toBe('small');

    await a.prompt(named, { text: 'something else' });
    await log.idle(named, mark);
    expect(server.titleRequests.length).toBe(before + 1);
    expect((await a.session(named)).title).toBe('My own title');
  });

  it('a failing title call never fails the prompt: the run goes on and the default title stays', async () => {
    const project = projectDir({ 'outpost.json': providerConfig(server) });
    const a = api(t);
    const sessionID = await a.createSession(project);
    const before = server.titleRequests.length;
    server.scriptTitle({ error: { status: 400, message: 'title model refused' } });
    server.script({ text: 'Answered anyway.' });
    const mark = log.events.length;
    const res = await a.prompt(sessionID, { text: 'hello there' });
    expect(res.status).toBe(200);
    await log.idle(sessionID, mark);
    await pollUntil('the title call', async () => server.titleRequests.length > before);
    const messages = await a.messages(sessionID);
    expect(messages.at(-1)).toMatchObject({
      type: 'assistant',
      content: [{ type: 'text', text: 'Answered anyway.' }],
    });
    expect((await a.session(sessionID)).title).toMatch(/^New session - /);
  });
});
