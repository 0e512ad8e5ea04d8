import { openSse } from '../../helpers/sse';
import { basic, TestApp } from '../../helpers/test-app';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { api, EventLog, scriptedProject, startScripted, stopScripted } from '../../helpers/prompt';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('todowrite and todoread: the session todo list, GET /session/{id}/todo and todo.updated', () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let log: EventLog;

  beforeAll(async () => ({ t, server, log } = await startScripted()));
  afterAll(() => stopScripted({ t, server }));

  it('the model writes and reads its todos; v1 clients get the list and its updates', async () => {
    const project = scriptedProject(server);
    const a = api(t);
    const sessionID = await a.createSession(project);
    const todos = [
      { id: '1', content: 'Write the parser', status: 'in_progress', priority: 'high' },
      { id: '2', content: 'Write tests', status: 'pending', priority: 'medium' },
    ];
    server.script(
      { toolCalls: [{ name: 'todowrite', input: { todos } }] },
      {
        toolCalls: [
          { name: 'todoread', input: {} },
          {
            name: 'todowrite',
            input: { todos: [{ id: '3', content: 'x', status: 'someday', priority: 'low' }] },
          },
        ],
      },
      { text: 'Planned.' },
    );
    const stream = await openSse(`${t.url}/event?directory=${encodeURIComponent(project)}`, {
      authorization: basic(),
    });
    try {
      await a.prompt(sessionID, { text: 'plan the work' });
      await log.idle(sessionID);
      const updated = stream.events.find(
        (e) => (e as unknown as Json).type === 'todo.updated',
      ) as unknown as Json;
      expect(updated.properties).toEqual({ sessionID, todos });
    } finally {
      stream.close();
    }
    expect(server.requests[0].body.tools.map((tool: Json) => tool.function.name)).toEqual(
      expect.arrayContaining(['todowrite', 'todoread']),
    );
    const results = (server.requests[2].body.messages as Json[]).filter((m) => m.role === 'tool');
    const read = results.find((m) => String(m.content).includes('Write the parser'));
    expect(read).toBeDefined();
    expect(JSON.stringify(results)).toContain(
      'todos[0].status must be pending, in_progress, completed, cancelled',
    );

    const list = await t.http
      .get(`/session/${sessionID}/todo?directory=${encodeURIComponent(project)}`)
      .set('authorization', basic());
    expect(list.status).toBe(200);
    expect(list.body).toEqual(todos);
  });
});
