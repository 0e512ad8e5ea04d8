import { EventEmitter2 } from '@nestjs/event-emitter';
import { OutpostEvent, PUBLISHED_EVENT } from '@/common/events';
import { basic, createTestApp, TestApp } from '../../helpers/test-app';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { scriptedProject } from '../../helpers/prompt';
import { opencode, opencodeEnv } from '../../helpers/opencode';

jest.setTimeout(180_000);

describe('opencode run --attach (the released 1.18.33 CLI) against Outpost', () => {
  let t: TestApp;
  let model: ScriptedModelServer;
  let project: string;

  beforeAll(async () => {
    model = await ScriptedModelServer.start();
    project = scriptedProject(model, { '.env': 'SECRET_WORD=from-the-file\n' });
    t = await createTestApp({ env: { OUTPOST_DEFAULT_DIRECTORY: project } });
  });
  afterAll(async () => {
    await t.close();
    await model.close();
  });

  it('prints the scripted answer and exits 0', async () => {
    model.script({ text: ['The answer ', 'is forty-two.'] });
    const run = await opencode(
      ['run', '--attach', t.url, '--dir', project, '--model', 'scripted/small', 'What is the answer?'],
      { env: opencodeEnv() },
    );
    expect({ code: run.code, stdout: run.stdout }).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('The answer is forty-two.'),
    });
    // The prompt went through Outpost's agent loop to the model, and the session is in Outpost.
    expect(JSON.stringify(model.requests[0].body)).toContain('What is the answer?');
    const sessions = await t.http.get('/api/session').set('authorization', basic());
    expect(sessions.body.data[0]).toMatchObject({
      location: { directory: project },
      model: { providerID: 'scripted', id: 'small' },
    });
  });

  it('without the password, the CLI is refused', async () => {
    const run = await opencode(['run', '--attach', t.url, '--dir', project, 'hi'], {
      env: opencodeEnv({ OPENCODE_SERVER_PASSWORD: 'wrong' }),
      timeoutMs: 30_000,
    });
    expect(run.code).not.toBe(0);
  });

  it('a tool that needs permission runs once the CLI answers it over the API (--auto), and not when it rejects', async () => {
    const replies: Array<{ reply: string }> = [];
    const emitter = t.app.get(EventEmitter2);
    const listener = (event: OutpostEvent) => {
      if (event.type === 'permission.replied') replies.push(event.data as { reply: string });
    };
    emitter.on(PUBLISHED_EVENT, listener);
    try {
      // Reading `.env` asks first (a built-in rule); the CLI answers with POST /permission/{id}/reply.
      model.script(
        { toolCalls: [{ name: 'read', input: { filePath: '.env' } }] },
        { text: 'The file says from-the-file.' },
      );
      const auto = await opencode(
        ['run', '--attach', t.url, '--dir', project, '--model', 'scripted/small', '--auto', 'Read .env'],
        { env: opencodeEnv(), timeoutMs: 90_000 },
      );
      expect({ code: auto.code, stdout: auto.stdout }).toMatchObject({
        code: 0,
        stdout: expect.stringContaining('The file says from-the-file.'),
      });
      expect(replies).toEqual([expect.objectContaining({ reply: 'once' })]);
      // The model got the file's content back from the tool.
      expect(JSON.stringify(model.requests.at(-1)!.body)).toContain('SECRET_WORD=from-the-file');

      // Without --auto the CLI rejects: the tool does not run.
      model.script(
        { toolCalls: [{ name: 'read', input: { filePath: '.env' } }] },
        { text: 'I could not read it.' },
      );
      const before = model.requests.length;
      const rejecting = await opencode(
        ['run', '--attach', t.url, '--dir', project, '--model', 'scripted/small', 'Read .env'],
        { env: opencodeEnv(), timeoutMs: 90_000 },
      );
      expect(replies.at(-1)).toMatchObject({ reply: 'reject' });
      expect(JSON.stringify(model.requests.slice(before).map((r) => r.body))).not.toContain('SECRET_WORD');
      expect(rejecting.stdout + rejecting.stderr).toMatch(/permission|reject/i);
    } finally {
      emitter.off(PUBLISHED_EVENT, listener);
    }
  });
});
