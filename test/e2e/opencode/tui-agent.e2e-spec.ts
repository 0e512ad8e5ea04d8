import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestApp, TestApp } from '../../helpers/test-app';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { scriptedProject } from '../../helpers/prompt';
import { opencodeEnv, Tui } from '../../helpers/opencode';

jest.setTimeout(180_000);

const ARTIFACTS = join(__dirname, '..', '..', 'artifacts', 'opencode');
function keep(name: string, screen: string): void {
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(join(ARTIFACTS, `${name}.txt`), screen);
}

describe("the released TUI's @file and !cmd against Outpost's agent", () => {
  let t: TestApp;
  let model: ScriptedModelServer;
  let project: string;
  let tui: Tui | undefined;

  beforeAll(async () => {
    model = await ScriptedModelServer.start();
    project = scriptedProject(model, {
      'src/greet.ts': 'export const greet = (name: string) => `Hi ${name}`;\n',
    });
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

  it('an @file mention reaches the model with the file content', async () => {
    tui = new Tui(['attach', t.url, '--dir', project], opencodeEnv(), project);
    await tui.waitFor('Ask anything');
    tui.type('@greet');
    await tui.waitFor('src/greet.ts');
    tui.type('\t');
    // Paces the keys (the TUI gives no sign that it took the pick); what follows waits for the screen.
    await new Promise((resolve) => setTimeout(resolve, 500));
    tui.type(' what does it do?');
    await tui.waitFor('what does it do?');
    model.script({ text: 'It greets someone by name.' });
    tui.type('\r');
    keep('tui-file-answer', await tui.waitFor('It greets someone by name.'));
    const sent = JSON.stringify(model.requests.at(-1)!.body.messages);
    expect(sent).toContain('Called the Read tool with the following input');
    expect(sent).toContain('export const greet = (name: string) =>');
  });

  it('!cmd runs in the location and the TUI shows its output', async () => {
    tui = new Tui(['attach', t.url, '--dir', project], opencodeEnv(), project);
    await tui.waitFor('Ask anything');
    tui.type('!');
    // Paces the keys (the TUI gives no sign that it entered shell mode); what follows waits for the screen.
    await new Promise((resolve) => setTimeout(resolve, 500));
    tui.type('echo shell-says-$((40+2))');
    await tui.waitFor('echo shell-says-');
    tui.type('\r');
    keep('tui-shell', await tui.waitFor('shell-says-42'));
  });

  it('/undo puts an edit back, ctrl+x r brings it back, ctrl+x c (compact) shows a compaction', async () => {
    tui = new Tui(['attach', t.url, '--dir', project], opencodeEnv(), project);
    await tui.waitFor('Ask anything');
    model.script(
      {
        toolCalls: [
          { name: 'edit', input: { filePath: 'src/greet.ts', oldString: 'Hi', newString: 'Hello' } },
        ],
      },
      { text: 'Changed the greeting.' },
    );
    tui.type('change the greeting');
    await tui.waitFor('change the greeting');
    tui.type('\r');
    await tui.waitFor('Changed the greeting.');
    expect(readFileSync(join(project, 'src/greet.ts'), 'utf8')).toContain('Hello');

    tui.type('/undo');
    await tui.waitFor('/undo');
    tui.type('\r');
    await waitUntil(() => readFileSync(join(project, 'src/greet.ts'), 'utf8').includes('`Hi '));
    keep('tui-undo', tui.screen());

    // The TUI puts the undone prompt back into the input: redo and compact by their keys (ctrl+x r, ctrl+x c).
    await tui.waitFor('1 message reverted');
    tui.type('\x18r');
    await waitUntil(() => readFileSync(join(project, 'src/greet.ts'), 'utf8').includes('Hello'));

    model.script({ text: 'SUMMARY: the greeting was changed.' });
    tui.type('\x18c');
    keep('tui-compact', await tui.waitFor('Compaction'));
    expect(JSON.stringify(model.requests.at(-1)!.body)).toContain('Provide a detailed summary');
  });
});

async function waitUntil(done: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('gave up waiting');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
