import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { basic, createTestApp, TestApp } from '../../helpers/test-app';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { scriptedProject } from '../../helpers/prompt';
import { opencodeEnv, Tui } from '../../helpers/opencode';

jest.setTimeout(180_000);

/** What the screen showed at each point, for a person to look at (git-ignored). */
const ARTIFACTS = join(__dirname, '..', '..', 'artifacts', 'opencode');
function keep(name: string, screen: string): void {
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(join(ARTIFACTS, `${name}.txt`), screen);
}

describe('opencode attach (the released 1.18.33 TUI) against Outpost, in a pseudo-terminal', () => {
  let t: TestApp;
  let model: ScriptedModelServer;
  let project: string;
  let tui: Tui | undefined;

  beforeAll(async () => {
    model = await ScriptedModelServer.start();
    project = scriptedProject(model, { 'src/parser.ts': 'export const parse = () => 1;\n' });
    t = await createTestApp({ env: { OUTPOST_DEFAULT_DIRECTORY: project } });
  });
  afterEach(async () => {
    await tui?.stop();
    tui = undefined;
  });
  afterAll(async () => {
    await t.close();
    await model.close();
  });

  it('starts, lists the sessions, sends a typed prompt and shows the streamed answer', async () => {
    const created = await t.http
      .post('/api/session')
      .set('authorization', basic())
      .send({ title: 'Earlier work on the parser', model: { providerID: 'scripted', id: 'small' } });
    expect(created.status).toBe(200);

    tui = new Tui(['attach', t.url, '--dir', project], opencodeEnv(), project);
    keep('tui-start', await tui.waitFor('Ask anything'));
    // The session list (ctrl+x l) shows the session made over the API.
    tui.type('\x18l');
    keep('tui-sessions', await tui.waitFor('Earlier work on the parser'));
    tui.type('\x1b');
    // Paces the keys (the TUI gives no sign that it closed the list); what follows waits for the screen.
    await new Promise((resolve) => setTimeout(resolve, 500));

    model.script({ text: ['Streamed ', 'answer ', 'from the scripted model.'] });
    tui.type('Tell me something');
    await tui.waitFor('Tell me something');
    tui.type('\r');
    const screen = await tui.waitFor('Streamed answer from the scripted model.');
    keep('tui-answer', screen);
    expect(screen).toContain('Tell me something');
    expect(JSON.stringify(model.requests.at(-1)!.body)).toContain('Tell me something');
    // The TUI stays up after the turn (a second watched: an exit within it fails the test).
    expect(await Promise.race([tui.exited, new Promise((r) => setTimeout(() => r('running'), 1_000))])).toBe(
      'running',
    );
  });

  it("offers the location's files after @ in the prompt (the TUI's file picker)", async () => {
    tui = new Tui(['attach', t.url, '--dir', project], opencodeEnv(), project);
    await tui.waitFor('Ask anything');
    tui.type('@pars');
    keep('tui-file-picker', await tui.waitFor('src/parser.ts'));
  });

  it("lists the server's /init and /review in its / menu", async () => {
    tui = new Tui(['attach', t.url, '--dir', project], opencodeEnv(), project);
    await tui.waitFor('Ask anything');
    tui.type('/');
    keep('tui-commands', await tui.waitFor('create or update AGENTS.md'));
    // The menu scrolls: narrowing it brings /review into view.
    tui.type('rev');
    keep('tui-review', await tui.waitFor(/\/review +review changes/));
  });
});
