import { openSse } from '../../helpers/sse';
import { basic, createTestApp, TestApp } from '../../helpers/test-app';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { scriptedProject } from '../../helpers/prompt';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The v1 routes of opencode 1.18.33 over plain HTTP: credentials, shapes, validation and the v1 event stream. */
describe('opencode v1 routes', () => {
  let t: TestApp;
  let model: ScriptedModelServer;
  let project: string;
  const auth = basic();
  const dir = (path: string) =>
    `${path}${path.includes('?') ? '&' : '?'}directory=${encodeURIComponent(project)}`;

  beforeAll(async () => {
    model = await ScriptedModelServer.start();
    project = scriptedProject(model, {
      'src/parser.ts': 'export const parse = () => 1;\n',
      'src/lexer.ts': 'export const lex = () => [];\n',
      'README.md': '# demo\n',
      'node_modules/dep/index.js': 'module.exports = 1;\n',
    });
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
    await model.close();
  });

  it('every v1 route the TUI reads at start-up needs the instance credentials', async () => {
    const paths = [
      '/path',
      '/project/current',
      '/config',
      '/config/providers',
      '/provider',
      '/provider/auth',
      '/agent',
      '/command',
      '/mcp',
      '/lsp',
      '/formatter',
      '/vcs',
      '/session',
      '/session/status',
      '/experimental/capabilities',
      '/experimental/console',
      '/experimental/workspace',
      '/experimental/workspace/status',
      '/experimental/resource',
      '/global/health',
      '/find/file?query=x',
      '/file?path=.',
      '/file/content?path=README.md',
      '/experimental/no-such-route',
    ];
    for (const path of paths) {
      const anonymous = await t.http.get(path);
      expect({ path, status: anonymous.status }).toEqual({ path, status: 401 });
      const wrong = await t.http.get(path).set('authorization', basic('wrong'));
      expect({ path, status: wrong.status }).toEqual({ path, status: 401 });
    }
    expect((await t.http.get('/global/health').set('authorization', auth)).body).toEqual({
      healthy: true,
      version: '1.18.33',
    });
  });

  it("answers the start-up reads from the directory's location: path, project, config, providers, agents", async () => {
    const get = async (path: string) => {
      const res = await t.http.get(dir(path)).set('authorization', auth);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      return res.body as Json;
    };
    expect(await get('/path')).toMatchObject({ directory: project, worktree: project });
    expect(await get('/project/current')).toMatchObject({ worktree: project, sandboxes: [] });
    const providers = await get('/config/providers');
    expect(providers.default).toEqual({ scripted: 'small' });
    expect(providers.providers[0]).toMatchObject({
      id: 'scripted',
      models: {
        small: { id: 'small', providerID: 'scripted', name: 'Small', cost: { input: 1, output: 2 } },
      },
    });
    // Never the provider's credentials.
    expect(JSON.stringify(providers)).not.toContain('sk-scripted');
    expect(JSON.stringify(await get('/config'))).not.toContain('sk-scripted');
    expect((await get('/provider')).connected).toEqual(['scripted']);
    const agents = (await get('/agent')) as Json[];
    expect(agents.map((a) => a.name)).toEqual(expect.arrayContaining(['build', 'plan']));
    expect(agents.find((a) => a.name === 'build')).toMatchObject({
      mode: 'primary',
      permission: expect.any(Array),
    });
    expect(((await get('/command')) as Json[]).map((c) => c.name)).toEqual(['init', 'review']);
    for (const empty of [
      '/skill',
      '/question',
      '/lsp',
      '/formatter',
      '/experimental/workspace',
      '/experimental/workspace/adapter',
    ])
      expect(await get(empty)).toEqual([]);
    expect(await get('/experimental/console/orgs')).toEqual({ orgs: [] });
    const synced = await t.http.post(dir('/experimental/workspace/sync-list')).set('authorization', auth);
    expect(synced.status).toBe(204);
  });

  it('runs a v1 prompt: POST /session/{id}/message answers the assistant message, /event streams the turn', async () => {
    const created = await t.http
      .post('/session')
      .set('authorization', auth)
      .set('x-opencode-directory', encodeURIComponent(project))
      .send({ title: 'v1 session' });
    expect(created.status).toBe(200);
    const session = created.body as Json;
    expect(session).toMatchObject({ directory: project, title: 'v1 session', version: '1.18.33' });
    expect(session.id).toMatch(/^ses_/);

    const events = await openSse(`${t.url}${dir('/event')}`, { authorization: auth });
    model.script({ text: ['Hi ', 'from v1.'] });
    const answer = await t.http
      .post(`/session/${session.id}/message`)
      .set('authorization', auth)
      .send({
        model: { providerID: 'scripted', modelID: 'small' },
        parts: [{ type: 'text', text: 'Hello v1' }],
      });
    expect(answer.status).toBe(200);
    expect(answer.body.info).toMatchObject({
      role: 'assistant',
      sessionID: session.id,
      providerID: 'scripted',
      modelID: 'small',
      finish: 'stop',
    });
    expect(answer.body.parts.map((p: Json) => p.type)).toEqual(['step-start', 'text', 'step-finish']);
    expect(answer.body.parts[1].text).toBe('Hi from v1.');

    const seen = await events.until((all) => all.some((e) => (e as unknown as Json).type === 'session.idle'));
    events.close();
    const types = (seen as unknown as Json[]).map((e) => e.type);
    expect(types[0]).toBe('server.connected');
    expect(types).toEqual(
      expect.arrayContaining([
        'session.status',
        'message.updated',
        'message.part.updated',
        'message.part.delta',
      ]),
    );
    const deltas = (seen as unknown as Json[]).filter((e) => e.type === 'message.part.delta');
    expect(deltas.map((e) => e.properties.delta).join('')).toBe('Hi from v1.');

    const messages = await t.http.get(`/session/${session.id}/message`).set('authorization', auth);
    expect(messages.body.map((m: Json) => m.info.role)).toEqual(['user', 'assistant']);
    expect(messages.body[0].parts[0]).toMatchObject({ type: 'text', text: 'Hello v1' });
    const listed = await t.http.get(dir('/session')).set('authorization', auth);
    expect(listed.body.map((s: Json) => s.id)).toContain(session.id);
  });

  it("finds, lists and reads the location's files for the TUI's file picker and viewer, never outside it", async () => {
    const get = async (path: string, status = 200) => {
      const res = await t.http.get(dir(path)).set('authorization', auth);
      expect({ path, status: res.status }).toEqual({ path, status });
      return res.body as Json;
    };
    expect(await get('/find/file?query=pars')).toEqual(['src/parser.ts']);
    expect(await get('/find/file?query=src')).toEqual(['src/', 'src/lexer.ts', 'src/parser.ts']);
    expect(await get('/find/file?query=src&dirs=false')).toEqual(['src/lexer.ts', 'src/parser.ts']);
    expect(await get('/find/file?query=&type=directory')).toEqual(['src/']);
    expect(await get('/find/file?query=sprs')).toEqual(['src/parser.ts']); // the letters in order
    expect(await get('/find/file?query=index')).toEqual([]); // dependencies are not searched
    expect(await get('/find/file?query=s&limit=1')).toHaveLength(1);

    const listed = (await get('/file?path=src')) as Json[];
    expect(listed).toEqual([
      {
        name: 'lexer.ts',
        path: 'src/lexer.ts',
        absolute: `${project}/src/lexer.ts`,
        type: 'file',
        ignored: false,
      },
      {
        name: 'parser.ts',
        path: 'src/parser.ts',
        absolute: `${project}/src/parser.ts`,
        type: 'file',
        ignored: false,
      },
    ]);
    const top = (await get('/file?path=.')) as Json[];
    expect(top.slice(0, 2).map((node) => [node.name, node.type, node.ignored])).toEqual([
      ['node_modules', 'directory', true],
      ['src', 'directory', false],
    ]);
    expect(await get('/file/content?path=src/parser.ts')).toEqual({
      type: 'text',
      content: 'export const parse = () => 1;\n',
    });

    for (const outside of ['..', '/etc/passwd', 'src/../../x']) {
      for (const route of ['/file', '/file/content']) {
        const refused = await get(`${route}?path=${encodeURIComponent(outside)}`, 400);
        expect(refused).toMatchObject({ success: false, errors: [{ path: ['path'] }] });
      }
    }
    expect(await get('/file/content?path=src', 400)).toMatchObject({ errors: [{ path: ['path'] }] });
    expect(await get('/find/file?query=x&limit=0', 400)).toMatchObject({ errors: [{ path: ['limit'] }] });
    expect(await get('/file', 400)).toMatchObject({ errors: [{ path: ['path'] }] });
  });

  it("refuses bad input with a 400 naming the field, in v1's own error forms", async () => {
    const refused = (field: string) => ({
      data: null,
      success: false,
      errors: [expect.objectContaining({ path: [field], message: expect.stringContaining(field) })],
    });
    const badID = await t.http.get('/session/not-a-session').set('authorization', auth);
    expect(badID.status).toBe(400);
    expect(badID.body).toEqual(refused('sessionID'));
    const created = await t.http.post('/session').set('authorization', auth).send({});
    const noParts = await t.http
      .post(`/session/${created.body.id}/message`)
      .set('authorization', auth)
      .send({});
    expect(noParts.status).toBe(400);
    expect(noParts.body).toEqual(refused('parts'));
    const badReply = await t.http
      .post('/permission/per_x/reply')
      .set('authorization', auth)
      .send({ reply: 'maybe' });
    expect(badReply.body).toEqual(refused('reply'));
    const missing = await t.http.get('/session/ses_7ffffffffffffffdSdKcLiEnTaBc').set('authorization', auth);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      name: 'NotFoundError',
      data: expect.objectContaining({ message: expect.stringContaining('ses_7ffffffffffffffdSdKcLiEnTaBc') }),
    });
    const anonymous = await t.http.get('/session');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['www-authenticate']).toMatch(/^Basic/);
    expect(anonymous.body).toEqual({
      name: 'UnauthorizedError',
      data: { message: 'Authentication required' },
    });
  });
});

describe('GET /experimental/tool (tool.list)', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('lists every tool id with what the model is told of it, and names a missing provider or model', async () => {
    const ids = await t.http.get('/experimental/tool/ids').set('authorization', basic());
    const list = await t.http
      .get('/experimental/tool?provider=scripted&model=small')
      .set('authorization', basic());
    expect(list.status).toBe(200);
    expect(list.body.map((tool: Json) => tool.id)).toEqual(ids.body);
    for (const tool of list.body as Json[]) {
      expect(tool.description.length).toBeGreaterThan(20);
      expect(tool.parameters).toMatchObject({ type: 'object', properties: expect.any(Object) });
    }
    expect(list.body.find((tool: Json) => tool.id === 'bash').parameters.required).toContain('command');

    const missing = await t.http.get('/experimental/tool?provider=scripted').set('authorization', basic());
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain('model');
    const anonymous = await t.http.get('/experimental/tool?provider=scripted&model=small');
    expect(anonymous.status).toBe(401);
  });
});
