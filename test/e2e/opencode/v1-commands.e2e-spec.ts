import { projectDir } from '../../helpers/project-dir';
import { api, providerConfig, startScripted, stopScripted } from '../../helpers/prompt';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { basic, TestApp } from '../../helpers/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('Commands: built-in /init and /review, config and file templates with $ARGUMENTS, @file and !`cmd`', () => {
  let t: TestApp;
  let server: ScriptedModelServer;

  beforeAll(async () => ({ t, server } = await startScripted()));
  afterAll(() => stopScripted({ t, server }));

  const at = (directory: string) => `directory=${encodeURIComponent(directory)}`;

  /** Runs a command through v1 and answers with the last user message the model received. */
  async function run(directory: string, command: string, args: string): Promise<string> {
    const sessionID = await api(t).createSession(directory);
    server.script({ text: 'Done.' });
    const res = await t.http
      .post(`/session/${sessionID}/command?${at(directory)}`)
      .set('authorization', basic())
      .send({ command, arguments: args });
    expect(res.status).toBe(200);
    const messages = server.requests.at(-1)!.body.messages as Json[];
    return JSON.stringify(messages.filter((m) => m.role === 'user').at(-1)!.content);
  }

  it('a bare project lists init and review, on v1 GET /command and v2 /api/command', async () => {
    const project = projectDir({ 'outpost.json': providerConfig(server) });
    const v1 = await t.http.get(`/command?${at(project)}`).set('authorization', basic());
    expect(v1.status).toBe(200);
    expect(v1.body.map((c: Json) => c.name)).toEqual(['init', 'review']);
    expect(v1.body[0].description).toContain('AGENTS.md');
    const v2 = await api(t).get(`/api/command?location[directory]=${encodeURIComponent(project)}`);
    expect(v2.status).toBe(200);
    expect(v2.body.data.map((c: Json) => c.name)).toEqual(['init', 'review']);
  });

  it('/init sends its template with the arguments to the model; /review names git diff and severities', async () => {
    const project = projectDir({ 'outpost.json': providerConfig(server) });
    const init = await run(project, 'init', 'mention the bench folder');
    expect(init).toContain('AGENTS.md');
    expect(init).toContain('mention the bench folder');
    const review = await run(project, 'review', 'HEAD~1');
    expect(review).toContain('git diff');
    expect(review).toContain('HEAD~1');
    expect(review).toContain('severity');
  });

  it('session.init runs /init with the model it names and answers true once the run has ended', async () => {
    const project = projectDir({ 'outpost.json': providerConfig(server) });
    const sessionID = await api(t).createSession(project);
    const before = server.requests.length;
    server.script({ text: 'Wrote AGENTS.md.' });
    const res = await t.http
      .post(`/session/${sessionID}/init?${at(project)}`)
      .set('authorization', basic())
      .send({ providerID: 'scripted', modelID: 'small', messageID: 'msg_0123456789abcdefghijklmnop' });
    expect(res.status).toBe(200);
    expect(res.body).toBe(true);
    expect(server.requests.length).toBe(before + 1);
    const user = (server.requests.at(-1)!.body.messages as Json[]).filter((m) => m.role === 'user').at(-1)!;
    expect(JSON.stringify(user.content)).toContain('AGENTS.md');
    const bad = await t.http
      .post(`/session/${sessionID}/init?${at(project)}`)
      .set('authorization', basic())
      .send({ messageID: 'nope' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('messageID');
  });

  it('a file command fills in $ARGUMENTS and $1, attaches @file, inlines !`cmd` and names a denied one', async () => {
    const config = JSON.parse(providerConfig(server)) as Json;
    const project = projectDir({
      'outpost.json': JSON.stringify({ ...config, permission: { bash: { 'rm *': 'deny' } } }),
      'notes.txt': 'The parser lives in src/parse.ts\n',
      '.opencode/command/x.md':
        '---\ndescription: Explain\n---\nExplain $1, then $2 (all: $ARGUMENTS) using @notes.txt.\n' +
        'Shell says: !`echo hi-from-shell`\nRemoved: !`rm -rf build`\n',
    });
    const user = await run(project, 'x', 'parsing the rest');
    expect(user).toContain('Explain parsing, then the rest (all: parsing the rest) using @notes.txt.');
    expect(user).toContain('Shell says: hi-from-shell\\nRemoved:');
    expect(user).toContain('[not run: the permission rules deny bash `rm -rf build`]');
    expect(user).toContain('The parser lives in src/parse.ts');
  });

  it("opencode.json's command entries are listed and run with their template", async () => {
    const config = JSON.parse(providerConfig(server)) as Json;
    const project = projectDir({
      'opencode.json': JSON.stringify({
        ...config,
        command: { summarize: { template: 'Summarize $ARGUMENTS in one line.', description: 'One line' } },
      }),
    });
    const list = await t.http.get(`/command?${at(project)}`).set('authorization', basic());
    expect(list.body.find((c: Json) => c.name === 'summarize')).toMatchObject({ description: 'One line' });
    expect(await run(project, 'summarize', 'README.md')).toContain('Summarize README.md in one line.');
  });
});
