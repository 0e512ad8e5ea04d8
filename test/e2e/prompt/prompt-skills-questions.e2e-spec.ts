import { projectDir } from '../../helpers/project-dir';
import { api, EventLog, providerConfig, startScripted, stopScripted } from '../../helpers/prompt';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { basic, TestApp } from '../../helpers/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const SKILL =
  '---\nname: release\ndescription: Cut a release of this project\n---\nBump the version, then run scripts/release.sh.\n';
const SECRET = '---\nname: secret-ops\ndescription: Rotate the production keys\n---\nNever shown.\n';

describe('Skills (SKILL.md folders, the skill tool) and the question tool (asked, answered, rejected)', () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let log: EventLog;

  beforeAll(async () => ({ t, server, log } = await startScripted()));
  afterAll(() => stopScripted({ t, server }));

  const at = (directory: string) => `directory=${encodeURIComponent(directory)}`;
  const toolNames = (request: Json) =>
    (request.body.tools as Json[]).map((tool) => tool.function.name as string);
  const toolResults = (request: Json) =>
    JSON.stringify((request.body.messages as Json[]).filter((m) => m.role === 'tool'));

  function skillProject(): string {
    const config = JSON.parse(providerConfig(server)) as Json;
    return projectDir({
      'outpost.json': JSON.stringify({ ...config, permission: { skill: { 'secret-*': 'deny' } } }),
      '.opencode/skill/release/SKILL.md': SKILL,
      '.opencode/skill/release/scripts/release.sh': 'echo release\n',
      '.claude/skills/secret-ops/SKILL.md': SECRET,
    });
  }

  it('GET /skill and /api/skill list the skills with their SKILL.md path and body', async () => {
    const project = skillProject();
    const v1 = await t.http.get(`/skill?${at(project)}`).set('authorization', basic());
    expect(v1.status).toBe(200);
    expect(v1.body).toEqual([
      {
        name: 'release',
        description: 'Cut a release of this project',
        location: `${project}/.opencode/skill/release/SKILL.md`,
        content: 'Bump the version, then run scripts/release.sh.',
      },
      expect.objectContaining({
        name: 'secret-ops',
        location: `${project}/.claude/skills/secret-ops/SKILL.md`,
      }),
    ]);
    const v2 = await api(t).get(`/api/skill?location[directory]=${encodeURIComponent(project)}`);
    expect(v2.body.data.map((s: Json) => s.name)).toEqual(['release', 'secret-ops']);
  });

  it('the skill tool lists the allowed skills, gives the body and folder, and refuses a denied one', async () => {
    const project = skillProject();
    const a = api(t);
    const sessionID = await a.createSession(project);
    server.script(
      { toolCalls: [{ name: 'skill', input: { name: 'release' } }] },
      { toolCalls: [{ name: 'skill', input: { name: 'secret-ops' } }] },
      { text: 'Released.' },
    );
    await a.prompt(sessionID, { text: 'cut a release' });
    await log.idle(sessionID);
    const [first, second, third] = server.requests.slice(-3);
    expect(toolNames(first)).toContain('skill');
    const description = (first.body.tools as Json[]).find((tool) => tool.function.name === 'skill')!.function
      .description as string;
    expect(description).toContain('- release: Cut a release of this project');
    expect(description).not.toContain('secret-ops');
    expect(toolResults(second)).toContain('Bump the version, then run scripts/release.sh.');
    expect(toolResults(second)).toContain(`${project}/.opencode/skill/release`);
    expect(toolResults(third)).toContain('Permission denied: skill secret-ops is not allowed');
    expect(toolResults(third)).not.toContain('Never shown.');
  });

  it('the question tool waits for the v1 reply; the answer is the tool output the model gets next', async () => {
    const project = projectDir({ 'outpost.json': providerConfig(server) });
    const a = api(t);
    const sessionID = await a.createSession(project);
    const questions = [
      {
        question: 'Which database should the cache use?',
        header: 'Cache',
        options: [
          { label: 'Redis', description: 'A separate server' },
          { label: 'PostgreSQL', description: 'The database we have' },
        ],
      },
    ];
    server.script({ toolCalls: [{ name: 'question', input: { questions } }] }, { text: 'PostgreSQL it is.' });
    const from = log.events.length;
    await a.prompt(sessionID, { text: 'add a cache' });
    const asked = await log.next<Json>('question.asked', (d) => d.sessionID === sessionID, from);
    expect(asked.data.questions).toEqual(questions);
    expect(asked.data.tool.callID).toBeDefined();

    const listed = await t.http.get(`/question?${at(project)}`).set('authorization', basic());
    expect(listed.body.map((q: Json) => q.id)).toEqual([asked.data.id]);
    const v2 = await a.get(`/api/session/${sessionID}/question`);
    expect(v2.body.data.map((q: Json) => q.id)).toEqual([asked.data.id]);

    const reply = await t.http
      .post(`/question/${asked.data.id}/reply?${at(project)}`)
      .set('authorization', basic())
      .send({ answers: [['PostgreSQL']] });
    expect(reply.status).toBe(200);
    await log.idle(sessionID, from);
    expect(log.of(sessionID, ['question.replied']).at(-1)!.data).toEqual({
      sessionID,
      requestID: asked.data.id,
      answers: [['PostgreSQL']],
    });
    expect(toolResults(server.requests.at(-1)!)).toContain(
      '\\"Which database should the cache use?\\" = \\"PostgreSQL\\"',
    );
    const again = await t.http
      .post(`/question/${asked.data.id}/reply`)
      .set('authorization', basic())
      .send({
        answers: [['Redis']],
      });
    expect(again.status).toBe(404);
  });

  it('rejecting the question ends the turn without another model call', async () => {
    const project = projectDir({ 'outpost.json': providerConfig(server) });
    const a = api(t);
    const sessionID = await a.createSession(project);
    const questions = [
      { question: 'Go on?', header: 'Go', options: [{ label: 'Yes', description: 'go on' }] },
    ];
    // One turn only: a second model call would find nothing scripted (and be counted below).
    server.script({ toolCalls: [{ name: 'question', input: { questions } }] });
    const from = log.events.length;
    const before = server.requests.length;
    await a.prompt(sessionID, { text: 'do it' });
    const asked = await log.next<Json>('question.asked', (d) => d.sessionID === sessionID, from);
    const res = await t.http.post(`/question/${asked.data.id}/reject`).set('authorization', basic());
    expect(res.status).toBe(200);
    await log.idle(sessionID, from);
    expect(server.requests.length).toBe(before + 1);
    expect(log.of(sessionID, ['question.rejected'])).toHaveLength(1);
    const messages = await a.messages(sessionID);
    const tool = messages.at(-1)!.content.find((part: Json) => part.type === 'tool');
    expect(tool.state).toMatchObject({ status: 'error', error: { type: 'QuestionRejected' } });
  });

  it('v2 answers a question at /api/session/{id}/question/{requestID}/reply (204), and 404 for another session', async () => {
    const project = projectDir({ 'outpost.json': providerConfig(server) });
    const a = api(t);
    const sessionID = await a.createSession(project);
    const other = await a.createSession(project);
    const questions = [
      { question: 'Tabs?', header: 'Indent', options: [{ label: 'Spaces', description: '2' }] },
    ];
    server.script({ toolCalls: [{ name: 'question', input: { questions } }] }, { text: 'Spaces then.' });
    const from = log.events.length;
    await a.prompt(sessionID, { text: 'format it' });
    const asked = await log.next<Json>('question.asked', (d) => d.sessionID === sessionID, from);
    const wrong = await a.post(`/api/session/${other}/question/${asked.data.id}/reply`, {
      answers: [['Spaces']],
    });
    expect(wrong.status).toBe(404);
    expect(wrong.body._tag).toBe('QuestionNotFoundError');
    const res = await a.post(`/api/session/${sessionID}/question/${asked.data.id}/reply`, {
      answers: [['Spaces']],
    });
    expect(res.status).toBe(204);
    await log.idle(sessionID, from);
    expect(toolResults(server.requests.at(-1)!)).toContain('\\"Tabs?\\" = \\"Spaces\\"');
  });
});
