import { EventEmitter2 } from '@nestjs/event-emitter';
import { OutpostEvent, PUBLISHED_EVENT } from '../../../src/common/events';
import { basic, createTestApp, TestApp } from '../../helpers/test-app';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { scriptedProject } from '../prompt/helpers';
import { opencode, opencodeEnv } from './helpers';

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

  it('runs a tool that needs permission once it is answered over the API', async () => {
    const emitter = t.app.get(EventEmitter2);
    const answered = new Promise<string>((resolve) => {
      const listener = (event: OutpostEvent) => {
        if (event.type !== 'permission.asked') return;
        emitter.off(PUBLISHED_EVENT, listener);
        const request = event.data as { id: string; sessionID: string };
        void t.http
          .post(`/api/session/${request.sessionID}/permission/${request.id}/reply`)
          .set('authorization', basic())
          .send({ reply: 'once' })
          .then((res) => resolve(`${res.status}`));
      };
      emitter.on(PUBLISHED_EVENT, listener);
    });
    model.script(
      // Reading `.env` asks first (a built-in rule).
      { toolCalls: [{ name: 'read', input: { filePath: '.env' } }] },
      { text: 'The file says from-the-file.' },
    );
    const run = await opencode(
      ['run', '--attach', t.url, '--dir', project, '--model', 'scripted/small', 'Read .env'],
      { env: opencodeEnv(), timeoutMs: 90_000 },
    );
    expect(await Promise.race([answered, 'never asked'])).toBe('204');
    expect({ code: run.code, stdout: run.stdout }).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('The file says from-the-file.'),
    });
    // The model got the tool's output back.
    expect(JSON.stringify(model.requests.at(-1)!.body)).toContain('SECRET_WORD=from-the-file');
  });
});
