import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Api, EventLog, scriptedProject, startScripted, stopScripted } from '../../helpers/prompt';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { basic, TestApp } from '../../helpers/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const SECRET = 'SECRET-TOKEN-4711';

/**
 * A location holding links to a file and a directory outside it, and a link inside that leads inside: every walk
 * of the location (the model's grep, glob and list; the v1 and v2 file routes) keeps the outside out, the same way.
 */
describe('links whose target is outside the location lead nowhere without asking', () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let log: EventLog;
  let a: Api;
  let project: string;
  let outside: string;

  beforeAll(async () => {
    ({ t, server, log, a } = await startScripted());
    outside = realpathSync(mkdtempSync(join(tmpdir(), 'outpost-outside-')));
    mkdirSync(join(outside, 'keys'));
    writeFileSync(join(outside, 'credentials.txt'), `token = ${SECRET}\n`);
    writeFileSync(join(outside, 'keys', 'id.txt'), `key = ${SECRET}\n`);
    project = scriptedProject(server, {
      'README.md': '# demo\nsee notes\n',
      'src/a.ts': 'export const token = "not a secret";\n',
    });
    symlinkSync(join(outside, 'credentials.txt'), join(project, 'notes.txt'));
    symlinkSync(join(outside, 'keys'), join(project, 'src', 'keys'));
    symlinkSync('README.md', join(project, 'readme-link.md'));
  });
  afterAll(() => stopScripted({ t, server }));

  /** One prompt whose model calls the tools given; the results it got back, in order. */
  async function toolResults(calls: Array<{ name: string; input: Json }>): Promise<string[]> {
    const sessionID = await a.createSession(project);
    server.script({ toolCalls: calls.map((call, i) => ({ id: `call_${i}`, ...call })) }, { text: 'Done.' });
    await a.prompt(sessionID, { text: 'look around' });
    await log.idle(sessionID);
    const results = (server.requests.at(-1)!.body.messages as Json[]).filter((m) => m.role === 'tool');
    return calls.map((_call, i) => String(results.find((m) => m.tool_call_id === `call_${i}`)?.content));
  }

  it("the model's grep without a path skips them and says so; a link leading inside is searched", async () => {
    const [grep, glob, list] = await toolResults([
      { name: 'grep', input: { pattern: 'token|see notes' } },
      { name: 'glob', input: { pattern: '**/*.txt' } },
      { name: 'list', input: {} },
    ]);
    for (const result of [grep, glob, list]) expect(result).not.toContain(SECRET);
    expect(grep.split('\n')).toEqual([
      'README.md:2: see notes',
      'readme-link.md:2: see notes',
      'src/a.ts:1: export const token = "not a secret";',
      '(skipped links leading outside the location: notes.txt, src/keys/; name one as the path to be asked for external_directory)',
    ]);
    expect(glob).toBe(
      'No files found\n(skipped links leading outside the location: notes.txt, src/keys/; name one as the path to be asked for external_directory)',
    );
    expect(list.split('\n')).toEqual([
      'README.md',
      'outpost.json',
      'readme-link.md',
      'src/',
      'src/a.ts',
      '(skipped links leading outside the location: notes.txt, src/keys/; name one as the path to be asked for external_directory)',
    ]);
  });

  it('naming the link itself asks for external_directory, as read does', async () => {
    // The built-in agents allow the temporary directory (where both directories live): ask anyway.
    const sessionID = await a.createSession(project, {
      permissions: [{ action: 'external_directory', resource: '*', effect: 'ask' }],
    });
    server.script({ toolCalls: [{ name: 'grep', input: { pattern: 'token', path: 'src/keys' } }] });
    const calls = server.requests.length;
    await a.prompt(sessionID, { text: 'search the keys' });
    const asked = await log.asked(sessionID);
    expect(asked.data).toMatchObject({
      permission: 'external_directory',
      patterns: [join(outside, 'keys', '*')],
    });
    expect((await a.reply(sessionID, asked.data.id as string, 'reject')).status).toBe(204);
    await log.idle(sessionID);
    // The rejection ends the turn: the model is not called again, and the call's error says why.
    expect(server.requests.length).toBe(calls + 1);
    const messages = await a.messages(sessionID);
    const tool = (messages.at(-1)!.content as Json[]).find((part) => part.type === 'tool') as Json;
    expect(JSON.stringify(tool.state)).toContain('The user rejected external_directory');
    expect(JSON.stringify(messages)).not.toContain(SECRET);
  });

  it('v1 GET /find?pattern= finds nothing behind them, and the file routes neither offer nor list them', async () => {
    const v1 = async (path: string) => {
      const res = await t.http
        .get(`${path}&directory=${encodeURIComponent(project)}`)
        .set('authorization', basic());
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      return res.body as Json[];
    };
    expect(await v1(`/find?pattern=${SECRET}`)).toEqual([]);
    const found = await v1('/find?pattern=token');
    expect(found.map((match) => match.path.text)).toEqual(['src/a.ts']);
    expect(JSON.stringify(found)).not.toContain(SECRET);
    expect(await v1('/find?pattern=see%20notes')).toEqual([
      expect.objectContaining({ path: { text: 'README.md' }, line_number: 2 }),
      expect.objectContaining({ path: { text: 'readme-link.md' }, line_number: 2 }),
    ]);

    expect(await v1('/find/file?query=notes')).toEqual([]);
    expect(await v1('/find/file?query=keys')).toEqual([]);
    expect(await v1('/find/file?query=readme')).toEqual(['README.md', 'readme-link.md']);
    expect((await v1('/file?path=.')).map((node) => [node.name, node.type])).toEqual([
      ['src', 'directory'],
      ['outpost.json', 'file'],
      ['readme-link.md', 'file'],
      ['README.md', 'file'],
    ]);
    expect((await v1('/file?path=src')).map((node) => node.name)).toEqual(['a.ts']);

    const v2 = await a.get(`/api/fs/list?location[directory]=${encodeURIComponent(project)}&path=src`);
    expect(v2.status).toBe(200);
    expect(v2.body.data).toEqual([{ path: 'src/a.ts', type: 'file' }]);
  });
});
