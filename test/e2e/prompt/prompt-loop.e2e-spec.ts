import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { openSse } from '../../helpers/sse';
import { basic, TestApp } from '../../helpers/test-app';
import {
  api,
  EventLog,
  FAST_RETRIES,
  scriptedProject,
  startScripted,
  stopScripted,
} from '../../helpers/prompt';

describe('session.prompt: the agent loop reads, edits under ask, runs bash and answers', () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let log: EventLog;

  beforeAll(async () => ({ t, server, log } = await startScripted({ env: FAST_RETRIES })));
  afterAll(() => stopScripted({ t, server }));

  it('records the transcript, tokens and cost, lists the session as active only while it runs', async () => {
    const project = scriptedProject(server, { 'hello.txt': 'Hello, world\n' });
    const a = api(t);
    const sessionID = await a.createSession(project, {
      permissions: [{ action: 'edit', resource: '*', effect: 'ask' }],
    });
    server.script(
      { toolCalls: [{ name: 'read', input: { filePath: 'hello.txt' } }], usage: { input: 100, output: 10 } },
      {
        toolCalls: [
          { name: 'edit', input: { filePath: 'hello.txt', oldString: 'world', newString: 'Outpost' } },
        ],
        usage: { input: 200, output: 20 },
      },
      {
        toolCalls: [{ name: 'bash', input: { command: 'cat hello.txt' } }],
        usage: { input: 300, output: 30 },
      },
      { text: ['All ', 'done.'], usage: { input: 400, output: 40 } },
    );
    const stream = await openSse(`${t.url}/api/event`, { authorization: basic() });
    try {
      const admitted = await a.prompt(sessionID, { text: 'Greet Outpost instead of the world' });
      expect(admitted.status).toBe(200);
      expect(admitted.body.data).toEqual({
        id: expect.stringMatching(/^msg_/),
        sessionID,
        timeCreated: expect.any(Number),
        type: 'user',
        payload: { text: 'Greet Outpost instead of the world' },
        delivery: 'steer',
        // what opencode's released SDK types the answer with, besides the spec's Session.Inbox.User
        admittedSeq: expect.any(Number),
        prompt: { text: 'Greet Outpost instead of the world' },
      });

      const asked = await stream.until((events) => events.some((e) => e.type === 'permission.asked'));
      const request = asked.find((e) => e.type === 'permission.asked')!.data as {
        id: string;
        permission: string;
        patterns: string[];
      };
      expect(request).toMatchObject({ permission: 'edit', patterns: ['hello.txt'] });
      expect((await a.get('/api/session/active')).body).toEqual({
        data: { [sessionID]: { type: 'running' } },
      });
      const pending = await a.get(`/api/session/${sessionID}/permission`);
      expect(pending.body.data.map((r: { id: string }) => r.id)).toEqual([request.id]);
      expect(readFileSync(join(project, 'hello.txt'), 'utf8')).toBe('Hello, world\n');

      const replied = await a.post(`/api/session/${sessionID}/permission/${request.id}/reply`, {
        reply: 'once',
      });
      expect(replied.status).toBe(204);
      await stream.until((events) => events.some((e) => e.type === 'session.idle'));

      expect((await a.get('/api/session/active')).body).toEqual({ data: {} });
      expect(readFileSync(join(project, 'hello.txt'), 'utf8')).toBe('Hello, Outpost\n');

      const messages = await a.messages(sessionID);
      expect(messages.map((m) => m.type)).toEqual([
        'user',
        'assistant',
        'assistant',
        'assistant',
        'assistant',
      ]);
      expect(messages[0]).toMatchObject({
        id: admitted.body.data.id,
        text: 'Greet Outpost instead of the world',
      });
      const [read, edit, bash] = messages.slice(1, 4).map((m) => m.content[0]);
      expect(read).toMatchObject({ type: 'tool', name: 'read', state: { status: 'completed' } });
      expect(read.state.content[0].text).toContain('Hello, world');
      expect(edit).toMatchObject({ name: 'edit', state: { status: 'completed' } });
      expect(bash).toMatchObject({ name: 'bash', state: { status: 'completed' } });
      expect(bash.state.content[0].text).toContain('Hello, Outpost');
      expect(messages[4]).toMatchObject({
        agent: 'build',
        model: { providerID: 'scripted', id: 'small' },
        content: [{ type: 'text', text: 'All done.' }],
        finish: 'stop',
        tokens: { input: 400, output: 40 },
        time: { completed: expect.any(Number) },
      });
      // 1 USD per million input tokens, 2 per million output tokens.
      expect(messages[4].cost).toBeCloseTo(400e-6 + 80e-6, 12);

      const session = await a.session(sessionID);
      expect(session.tokens).toEqual({
        input: 1000,
        output: 100,
        reasoning: 0,
        cache: { read: 0, write: 0 },
      });
      expect(session.cost).toBeCloseTo(1000e-6 + 200e-6, 12);
      expect(session.outcome).toBe('succeeded');
      expect(session.time.idle).toEqual(expect.any(Number));

      // The model saw the tools, then every tool result in the history of the next step.
      expect(server.requests).toHaveLength(4);
      const offered = server.requests[0].body.tools.map(
        (tool: { function: { name: string } }) => tool.function.name,
      );
      expect(offered).toEqual(
        expect.arrayContaining(['read', 'edit', 'bash', 'write', 'glob', 'grep', 'list']),
      );
      const last = server.requests[3].body.messages as Array<{ role: string; content: string }>;
      expect(last.filter((m) => m.role === 'tool')).toHaveLength(3);
      expect(last.at(-1)!.content).toContain('Hello, Outpost');

      const steps = stream.events
        .filter((e) => (e.data as { sessionID?: string }).sessionID === sessionID)
        .map((e) => e.type)
        .filter((type) =>
          [
            'session.inbox.enqueued',
            'session.execution.started',
            'session.step.started',
            'session.step.ended',
            'permission.asked',
            'permission.replied',
            'session.execution.succeeded',
            'session.idle',
          ].includes(type),
        );
      expect(steps).toEqual([
        'session.inbox.enqueued',
        'session.execution.started',
        'session.step.started',
        'session.step.ended',
        'session.step.started',
        'permission.asked',
        'permission.replied',
        'session.step.ended',
        'session.step.started',
        'session.step.ended',
        'session.step.started',
        'session.step.ended',
        'session.execution.succeeded',
        'session.idle',
      ]);
      const deltas = stream.events
        .filter((e) => e.type === 'session.message.part.delta')
        .map((e) => e.data as { messageID: string; type: string; delta: string });
      expect(deltas.filter((d) => d.type === 'text').map((d) => d.delta)).toEqual(['All ', 'done.']);
      expect(deltas.every((d) => d.messageID === messages[4].id || d.type === 'tool-input')).toBe(true);
      const ended = stream.events.filter((e) => e.type === 'session.step.ended').at(-1)!;
      expect(ended.data).toMatchObject({ messageID: messages[4].id, finish: 'stop', tokens: { input: 400 } });
      expect(log.of(sessionID, ['session.idle'])[0].data).toEqual({ sessionID, outcome: 'succeeded' });
      const updated = log.of(sessionID, ['session.updated']).at(-1)!.data as { info: { tokens: unknown } };
      expect(updated.info).toMatchObject({
        id: sessionID,
        outcome: 'succeeded',
        tokens: { input: 1000, output: 100 },
      });
    } finally {
      stream.close();
    }
  });
});
