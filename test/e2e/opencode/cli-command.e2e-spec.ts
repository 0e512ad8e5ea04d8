import { basic, createTestApp, TestApp } from '../../helpers/test-app';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { scriptedProject } from '../../helpers/prompt';
import { opencode, opencodeEnv } from '../../helpers/opencode';

jest.setTimeout(180_000);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('Command templates (.opencode/command/*.md): listed for the TUI, run by session.command', () => {
  let t: TestApp;
  let model: ScriptedModelServer;
  let project: string;

  beforeAll(async () => {
    model = await ScriptedModelServer.start();
    project = scriptedProject(model, {
      '.opencode/command/review.md':
        '---\ndescription: Review a file\n---\nReview the file $1 and report problems.\nContext: $ARGUMENTS\n',
      '.opencode/command/broken.md': '---\n: [\n---\nbody\n',
    });
    t = await createTestApp({ env: { OUTPOST_DEFAULT_DIRECTORY: project } });
  });
  afterAll(async () => {
    await t.close();
    await model.close();
  });

  it('GET /command lists the templates beside the built-in ones (a broken one is left out)', async () => {
    const res = await t.http
      .get(`/command?directory=${encodeURIComponent(project)}`)
      .set('authorization', basic());
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      expect.objectContaining({ name: 'init' }),
      {
        name: 'review',
        description: 'Review a file',
        template: 'Review the file $1 and report problems.\nContext: $ARGUMENTS',
      },
    ]);
  });

  it('opencode run --command sends the expanded template to the model and prints the answer', async () => {
    model.script({ text: 'No problems found.' });
    const run = await opencode(
      [
        'run',
        '--attach',
        t.url,
        '--dir',
        project,
        '--model',
        'scripted/small',
        '--command',
        'review',
        'src/a.ts',
      ],
      { env: opencodeEnv() },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('No problems found.');
    const user = (model.requests.at(-1)!.body.messages as Json[]).filter((m) => m.role === 'user').at(-1)!;
    expect(JSON.stringify(user.content)).toContain(
      'Review the file src/a.ts and report problems.\\nContext: src/a.ts',
    );
  });

  it('opencode run --command init runs the built-in /init template and exits 0', async () => {
    model.script({ text: 'Wrote AGENTS.md.' });
    const args = [
      'run',
      '--attach',
      t.url,
      '--dir',
      project,
      '--model',
      'scripted/small',
      '--command',
      'init',
    ];
    const run = await opencode(args, { env: opencodeEnv() });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Wrote AGENTS.md.');
    const user = (model.requests.at(-1)!.body.messages as Json[]).filter((m) => m.role === 'user').at(-1)!;
    expect(JSON.stringify(user.content)).toContain('write a file named AGENTS.md');
  });

  it('an unknown command is a 404 naming it', async () => {
    const created = await t.http
      .post(`/session?directory=${encodeURIComponent(project)}`)
      .set('authorization', basic())
      .send({});
    const res = await t.http
      .post(`/session/${created.body.id}/command?directory=${encodeURIComponent(project)}`)
      .set('authorization', basic())
      .send({ command: 'nope', arguments: '' });
    expect(res.status).toBe(404);
    expect(JSON.stringify(res.body)).toContain('nope');
  });
});
