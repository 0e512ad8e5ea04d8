import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CapturingLogger } from '../../helpers/capturing-logger';
import { projectDir } from '../../helpers/project-dir';
import { api, providerConfig, scriptedProject, startScripted, stopScripted } from '../../helpers/prompt';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { openSse, SseClient } from '../../helpers/sse';
import { basic, TestApp } from '../../helpers/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * opencode's writes its clients make: a stored message's parts (`part.update`, `part.delete`), a project's name
 * (`project.update`), the config files (`config.update`, `global.config.update`) and a provider's API key
 * (`auth.set`, `auth.remove`).
 */
describe('opencode v1 edit routes: parts, project, config and provider keys', () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let project: string;
  const auth = basic();
  const at = (path: string, directory = project) =>
    `${path}${path.includes('?') ? '&' : '?'}directory=${encodeURIComponent(directory)}`;
  const http = () => ({
    get: (path: string) => t.http.get(at(path)).set('authorization', auth),
    patch: (path: string, body: unknown) =>
      t.http
        .patch(at(path))
        .set('authorization', auth)
        .set('content-type', 'application/json')
        .send(JSON.stringify(body)),
    put: (path: string, body: unknown) =>
      t.http
        .put(at(path))
        .set('authorization', auth)
        .send(body as object),
    delete: (path: string) => t.http.delete(at(path)).set('authorization', auth),
  });

  beforeAll(async () => {
    ({ t, server } = await startScripted());
    project = scriptedProject(server, { 'README.md': '# demo\n' });
  });
  afterAll(() => stopScripted({ t, server }));

  /** A v1 session with one turn: the user's text, the assistant's reasoning and text. */
  async function turn(): Promise<{ sessionID: string; user: Json; assistant: Json }> {
    const session = await t.http.post(at('/session')).set('authorization', auth).send({ title: 'edits' });
    const sessionID = session.body.id as string;
    server.script({ reasoning: 'thinking it over', text: 'the first answer' });
    const answer = await t.http
      .post(`/session/${sessionID}/message`)
      .set('authorization', auth)
      .send({
        model: { providerID: 'scripted', modelID: 'small' },
        parts: [{ type: 'text', text: 'hello' }],
      });
    expect(answer.status).toBe(200);
    const messages = (await http().get(`/session/${sessionID}/message`)).body as Json[];
    return { sessionID, user: messages[0], assistant: messages[1] };
  }

  async function streams(): Promise<{ v1: SseClient; v2: SseClient }> {
    const v1 = await openSse(`${t.url}${at('/event')}`, { authorization: auth });
    const v2 = await openSse(`${t.url}/api/event?location[directory]=${encodeURIComponent(project)}`, {
      authorization: auth,
    });
    return { v1, v2 };
  }

  const v1Event = (client: SseClient, type: string, match: (p: Json) => boolean) =>
    client.until((all) =>
      all.some((e) => (e as unknown as Json).type === type && match((e as Json).properties)),
    );
  const v2Event = (client: SseClient, type: string, match: (d: Json) => boolean) =>
    client.until((all) => all.some((e) => e.type === type && match(e.data as Json)));

  it('part.update replaces an assistant part in place (same id), announces it on both streams, and the model is sent the new text', async () => {
    const { sessionID, assistant } = await turn();
    expect(assistant.parts.map((p: Json) => p.type)).toEqual([
      'step-start',
      'reasoning',
      'text',
      'step-finish',
    ]);
    const text = assistant.parts[2];
    const { v1, v2 } = await streams();

    const res = await http().patch(`/session/${sessionID}/message/${assistant.info.id}/part/${text.id}`, {
      ...text,
      text: 'an edited answer',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: text.id,
      sessionID,
      messageID: assistant.info.id,
      type: 'text',
      text: 'an edited answer',
    });
    await v1Event(
      v1,
      'message.part.updated',
      (p) => p.part.id === text.id && p.part.text === 'an edited answer',
    );
    await v2Event(v2, 'message.part.updated', (d) => d.sessionID === sessionID && d.part.id === text.id);
    v1.close();
    v2.close();

    const after = (await http().get(`/session/${sessionID}/message/${assistant.info.id}`)).body as Json;
    expect(after.parts[2]).toMatchObject({ id: text.id, text: 'an edited answer' });

    server.script({ text: 'second answer' });
    const before = server.requests.length;
    await t.http
      .post(`/session/${sessionID}/message`)
      .set('authorization', auth)
      .send({ parts: [{ type: 'text', text: 'and now?' }] })
      .expect(200);
    const sent = JSON.stringify(server.requests[before].body.messages);
    expect(sent).toContain('an edited answer');
    expect(sent).not.toContain('the first answer');
  });

  it('part.delete removes one part; the parts after it keep their ids; both streams announce the removal', async () => {
    const { sessionID, user, assistant } = await turn();
    const [start, reasoning, text, finish] = assistant.parts as Json[];
    const { v1, v2 } = await streams();

    const res = await http().delete(
      `/session/${sessionID}/message/${assistant.info.id}/part/${reasoning.id}`,
    );
    expect(res.status).toBe(200);
    expect(res.body).toBe(true);
    await v1Event(v1, 'message.part.removed', (p) => p.partID === reasoning.id);
    await v2Event(
      v2,
      'message.part.removed',
      (d) => d.sessionID === sessionID && d.messageID === assistant.info.id && d.partID === reasoning.id,
    );
    v1.close();
    v2.close();

    let now = (await http().get(`/session/${sessionID}/message/${assistant.info.id}`)).body as Json;
    expect(now.parts.map((p: Json) => p.id)).toEqual([start.id, text.id, finish.id]);

    // The text part, now first of the content, is still found by its id.
    await http().delete(`/session/${sessionID}/message/${assistant.info.id}/part/${text.id}`).expect(200);
    await http().delete(`/session/${sessionID}/message/${assistant.info.id}/part/${start.id}`).expect(200);
    now = (await http().get(`/session/${sessionID}/message/${assistant.info.id}`)).body as Json;
    expect(now.parts.map((p: Json) => p.id)).toEqual([finish.id]);

    await http().delete(`/session/${sessionID}/message/${user.info.id}/part/${user.parts[0].id}`).expect(200);
    const userNow = (await http().get(`/session/${sessionID}/message/${user.info.id}`)).body as Json;
    expect(userNow.parts).toEqual([]);

    // The model is sent neither the removed prompt nor the emptied answer: just the new prompt.
    server.script({ text: 'fresh start' });
    const before = server.requests.length;
    await t.http
      .post(`/session/${sessionID}/message`)
      .set('authorization', auth)
      .send({ parts: [{ type: 'text', text: 'start over' }] })
      .expect(200);
    const sent = server.requests[before].body.messages as Json[];
    expect(sent.filter((m) => m.role !== 'system')).toEqual([{ role: 'user', content: 'start over' }]);

    // Gone is gone: a second delete is a 404.
    const again = await http().delete(`/session/${sessionID}/message/${assistant.info.id}/part/${text.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ name: 'NotFoundError', data: { partID: text.id } });
  });

  it('part routes answer 404 for an unknown session, message or part, and 400 naming the field for a bad part', async () => {
    const { sessionID, assistant } = await turn();
    const text = assistant.parts[2] as Json;
    const path = `/session/${sessionID}/message/${assistant.info.id}/part/${text.id}`;

    const noSession = await http().delete(
      `/session/ses_0000000000000000AAAAAAAAAAAA/message/${assistant.info.id}/part/${text.id}`,
    );
    expect(noSession.status).toBe(404);
    expect(noSession.body.name).toBe('NotFoundError');
    const noMessage = await http().delete(
      `/session/${sessionID}/message/msg_0000000000000000AAAAAAAAAAAA/part/${text.id}`,
    );
    expect(noMessage.status).toBe(404);
    expect(noMessage.body.name).toBe('NotFoundError');
    const noPart = await http().patch(path.replace(text.id, 'prt_nothere'), { ...text, id: 'prt_nothere' });
    expect(noPart.status).toBe(404);
    expect(noPart.body).toMatchObject({ name: 'NotFoundError', data: { partID: 'prt_nothere' } });

    const refused = async (body: unknown, field: string) => {
      const res = await http().patch(path, body);
      expect({ status: res.status, path: res.body.errors?.[0]?.path }).toEqual({
        status: 400,
        path: [field],
      });
    };
    await refused({ ...text, type: 'bogus' }, 'type');
    await refused({ ...text, text: 5 }, 'text');
    await refused({ ...text, id: 'prt_other' }, 'id');
    await refused({ ...text, text: undefined }, 'text');
    await refused(
      { ...text, type: 'tool', state: { status: 'done' }, callID: 'c1', tool: 'bash' },
      'state.status',
    );
    const start = assistant.parts[0] as Json;
    const step = await http().patch(path.replace(text.id, start.id), start);
    expect({ status: step.status, path: step.body.errors?.[0]?.path }).toEqual({
      status: 400,
      path: ['type'],
    });
    expect((await http().patch(path, [text])).status).toBe(400);
    const unchanged = (await http().get(`/session/${sessionID}/message/${assistant.info.id}`)).body as Json;
    expect(unchanged.parts[2].text).toBe('the first answer');
  });

  it('project.update keeps the name and icon; GET /project/current shows them; unknown id 404, bad body 400', async () => {
    const current = (await http().get('/project/current')).body as Json;
    expect(current.name).toBeUndefined();
    const { v1 } = await streams();
    const res = await http().patch(`/project/${current.id}`, {
      name: 'Demo app',
      icon: { color: 'blue' },
      commands: { start: 'npm ci' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: current.id,
      worktree: project,
      name: 'Demo app',
      icon: { color: 'blue' },
      commands: { start: 'npm ci' },
      sandboxes: [],
    });
    expect(res.body.time.updated).toBeGreaterThan(0);
    await v1Event(v1, 'project.updated', (p) => p.id === current.id && p.name === 'Demo app');
    v1.close();

    const renamed = await http().patch(`/project/${current.id}`, { name: 'Renamed' });
    expect(renamed.body).toMatchObject({ name: 'Renamed', icon: { color: 'blue' } });
    expect((await http().get('/project/current')).body).toMatchObject({ id: current.id, name: 'Renamed' });
    expect((await http().get('/project')).body[0]).toMatchObject({ name: 'Renamed' });

    const unknown = await http().patch('/project/not-a-project', { name: 'x' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ name: 'NotFoundError', data: { projectID: 'not-a-project' } });
    const bad = await http().patch(`/project/${current.id}`, { name: 5 });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toEqual(['name']);
    const badIcon = await http().patch(`/project/${current.id}`, { icon: { color: 7 } });
    expect(badIcon.status).toBe(400);
    expect(badIcon.body.errors[0].path).toEqual(['icon.color']);
  });

  it('config.update merges into the location opencode.json, reloads, and refuses a config the reader would not take', async () => {
    const res = await http().patch('/config', {
      agent: { reviewer: { description: 'Reviews changes', mode: 'subagent' } },
      instructions: ['CONTRIBUTING.md'],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      agent: { reviewer: { description: 'Reviews changes', mode: 'subagent' } },
      instructions: ['CONTRIBUTING.md'],
    });
    const file = JSON.parse(readFileSync(join(project, 'opencode.json'), 'utf8')) as Json;
    expect(file).toEqual({
      agent: { reviewer: { description: 'Reviews changes', mode: 'subagent' } },
      instructions: ['CONTRIBUTING.md'],
    });
    // Reloaded: the agent is there at once.
    const agents = (await http().get('/agent')).body as Json[];
    expect(agents.map((a) => a.name)).toContain('reviewer');

    // Merged, not replaced.
    const more = await http().patch('/config', { agent: { reviewer: { color: 'accent' } } });
    expect(more.body.agent.reviewer).toEqual({
      description: 'Reviews changes',
      mode: 'subagent',
      color: 'accent',
    });
    expect(more.body.instructions).toEqual(['CONTRIBUTING.md']);

    const bad = await http().patch('/config', { agent: { reviewer: { mode: 'sometimes' } } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toEqual(['agents.reviewer.mode']);
    const badProvider = await http().patch('/config', { provider: { broken: { models: 3 } } });
    expect(badProvider.status).toBe(400);
    expect(badProvider.body.errors[0].path[0]).toMatch(/^provider\.broken/);
    const notObject = await http().patch('/config', [1, 2]);
    expect(notObject.status).toBe(400);
    expect(JSON.parse(readFileSync(join(project, 'opencode.json'), 'utf8')).agent.reviewer.mode).toBe(
      'subagent',
    );
  });

  it('global.config.update merges into opencode global file, which every location reads', async () => {
    const other = scriptedProject(server);
    const res = await http().patch('/global/config', {
      agent: { everywhere: { description: 'In every project', mode: 'subagent' } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ agent: { everywhere: { mode: 'subagent' } } });
    const file = join(t.dataDir, 'xdg-config', 'opencode', 'opencode.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(res.body);
    const agents = (await t.http.get(at('/agent', other)).set('authorization', auth)).body as Json[];
    expect(agents.map((a) => a.name)).toContain('everywhere');

    const bad = await http().patch('/global/config', { model: 7 });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toEqual(['model']);
  });

  it('auth.set keeps the key (0600) for a provider configured without one: a prompt sends it, no answer shows it; auth.remove drops it', async () => {
    const KEY = 'sk-kept-by-auth-set-4711';
    const config = JSON.parse(providerConfig(server)) as Json;
    delete config.provider.scripted.settings.apiKey;
    config.provider.keyed = config.provider.scripted;
    delete config.provider.scripted;
    const keyed = projectDir({ 'outpost.json': JSON.stringify(config) });
    const a = api(t);
    const logger = new CapturingLogger();
    t.app.useLogger(logger);

    const set = await t.http.put('/auth/keyed').set('authorization', auth).send({ type: 'api', key: KEY });
    expect(set.status).toBe(200);
    expect(set.body).toBe(true);
    const store = join(t.dataDir, 'provider-keys.json');
    expect(statSync(store).mode & 0o777).toBe(0o600);

    const sessionID = await a.createSession(keyed, { model: { providerID: 'keyed', id: 'small' } });
    server.script({ text: 'keyed answer' });
    let before = server.requests.length;
    await t.http
      .post(`/session/${sessionID}/message`)
      .set('authorization', auth)
      .send({ parts: [{ type: 'text', text: 'with the key' }] })
      .expect(200);
    expect(server.requests[before].headers.authorization).toBe(`Bearer ${KEY}`);

    const answers = await Promise.all(
      ['/config', '/config/providers', '/provider', '/global/config'].map((path) =>
        t.http.get(at(path, keyed)).set('authorization', auth),
      ),
    );
    for (const answer of answers) expect(JSON.stringify(answer.body)).not.toContain(KEY);
    expect(JSON.stringify(set.body)).not.toContain(KEY);

    const oauth = await t.http
      .put('/auth/keyed')
      .set('authorization', auth)
      .send({ type: 'oauth', refresh: 'r', access: 'a', expires: 1 });
    expect(oauth.status).toBe(400);
    expect(oauth.body.errors[0].path).toEqual(['type']);
    const noKey = await t.http.put('/auth/keyed').set('authorization', auth).send({ type: 'api' });
    expect(noKey.status).toBe(400);
    expect(noKey.body.errors[0].path).toEqual(['key']);
    const unauthenticated = await t.http.put('/auth/keyed').send({ type: 'api', key: 'x' });
    expect(unauthenticated.status).toBe(401);

    const removed = await t.http.delete('/auth/keyed').set('authorization', auth);
    expect(removed.status).toBe(200);
    expect(removed.body).toBe(true);
    expect(readFileSync(store, 'utf8')).not.toContain(KEY);
    server.script({ text: 'no key now' });
    before = server.requests.length;
    await t.http
      .post(`/session/${sessionID}/message`)
      .set('authorization', auth)
      .send({ parts: [{ type: 'text', text: 'without the key' }] })
      .expect(200);
    expect(server.requests[before].headers.authorization).toBeUndefined();
    expect(existsSync(store)).toBe(true);

    // Another node sharing the data folder sets the key: the next call here reads it from the file.
    writeFileSync(store, JSON.stringify({ OUTPOST_KEY_KEYED: `${KEY}-other` }), { mode: 0o600 });
    server.script({ text: 'key from the other node' });
    before = server.requests.length;
    await t.http
      .post(`/session/${sessionID}/message`)
      .set('authorization', auth)
      .send({ parts: [{ type: 'text', text: 'with the other key' }] })
      .expect(200);
    expect(server.requests[before].headers.authorization).toBe(`Bearer ${KEY}-other`);
    expect([...logger.lines, ...logger.warnings].join('\n')).not.toContain(KEY);
  });
});
