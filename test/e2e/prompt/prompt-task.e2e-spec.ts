import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { basic, TestApp } from '../../helpers/test-app';
import { api, EventLog, scriptedProject, startScripted, stopScripted } from '../../helpers/prompt';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('The task tool: a subagent works in a child session and the caller gets its report', () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let log: EventLog;

  beforeAll(async () => ({ t, server, log } = await startScripted()));
  afterAll(() => stopScripted({ t, server }));

  it('runs the explore subagent in a child session; its last answer is the tool result', async () => {
    const project = scriptedProject(server, { 'src/parser.ts': 'export const parse = 1;\n' });
    const a = api(t);
    const sessionID = await a.createSession(project);
    const before = server.requests.length;
    server.script(
      {
        toolCalls: [
          {
            name: 'task',
            input: {
              description: 'Find the parser',
              prompt: 'Where is the parser defined?',
              subagent_type: 'explore',
            },
          },
        ],
      },
      { text: 'It is in src/parser.ts.' },
      { text: 'The explorer says: src/parser.ts.' },
    );
    await a.prompt(sessionID, { text: 'where is the parser?' });
    await log.idle(sessionID);

    const [, child, next] = server.requests.slice(before).map((r) => r.body);
    expect(child.messages[0].content).toContain('You are a fast, read-only agent for exploring a codebase.');
    expect(child.messages.at(-1)).toMatchObject({ role: 'user', content: 'Where is the parser defined?' });
    expect(child.tools.map((tool: Json) => tool.function.name)).not.toContain('edit');
    const result = (next.messages as Json[]).find((m) => m.role === 'tool')!;
    expect(result.content).toMatch(
      /^task_id: ses_\w+\n\n<task_result>\nIt is in src\/parser\.ts\.\n<\/task_result>$/,
    );

    const children = await t.http
      .get(`/session/${sessionID}/children?directory=${encodeURIComponent(project)}`)
      .set('authorization', basic());
    expect(children.body).toEqual([
      expect.objectContaining({ parentID: sessionID, title: 'Find the parser (@explore subagent)' }),
    ]);
    const step = (await a.messages(sessionID)).find((m) => m.type === 'assistant')!;
    expect(step.content[0].state.metadata).toMatchObject({ sessionId: children.body[0].id });
    const childMessages = await a.messages(children.body[0].id);
    expect(childMessages.map((m) => m.type)).toEqual(['user', 'assistant']);
  });

  it('refuses an agent that is not a subagent, naming the ones there are', async () => {
    const project = scriptedProject(server);
    const a = api(t);
    const sessionID = await a.createSession(project);
    server.script(
      { toolCalls: [{ name: 'task', input: { description: 'x', prompt: 'y', subagent_type: 'build' } }] },
      { text: 'ok' },
    );
    await a.prompt(sessionID, { text: 'delegate' });
    await log.idle(sessionID, log.events.length - 1);
    const result = (server.requests.at(-1)!.body.messages as Json[]).find((m) => m.role === 'tool')!;
    expect(result.content).toContain('no subagent "build"; available: general, explore');
  });
});
