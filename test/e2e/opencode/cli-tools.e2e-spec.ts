import { basic, createTestApp, TestApp } from '../../helpers/test-app';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { scriptedProject } from '../../helpers/prompt';
import { opencode, opencodeEnv } from '../../helpers/opencode';

jest.setTimeout(180_000);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('Tool parts as opencode draws them: metadata, and each tool line printed once by opencode run', () => {
  let t: TestApp;
  let model: ScriptedModelServer;
  let project: string;

  beforeAll(async () => {
    model = await ScriptedModelServer.start();
    project = scriptedProject(model, { 'greet.ts': 'export const greet = () => "hello";\n' });
    t = await createTestApp({ env: { OUTPOST_DEFAULT_DIRECTORY: project } });
  });
  afterAll(async () => {
    await t.close();
    await model.close();
  });

  it('opencode run --attach prints each finished tool once; the parts carry output, diff and matches', async () => {
    model.script(
      {
        toolCalls: [
          { name: 'bash', input: { command: 'echo printed-by-bash', description: 'Echo a marker' } },
          { name: 'grep', input: { pattern: 'greet' } },
        ],
      },
      {
        toolCalls: [
          { name: 'edit', input: { filePath: 'greet.ts', oldString: '"hello"', newString: '"hi"' } },
        ],
      },
      { text: 'All three tools ran.' },
    );
    const run = await opencode(
      ['run', '--attach', t.url, '--dir', project, '--model', 'scripted/small', 'Use your tools'],
      { env: opencodeEnv() },
    );
    expect(run.code).toBe(0);
    // Tool lines go to stderr, the answer to stdout: each exactly once.
    const shown = stripAnsi(run.stderr + run.stdout);
    const count = (text: string) => shown.split(text).length - 1;
    expect(count('$ echo printed-by-bash')).toBe(1);
    expect(shown.split('\n').filter((line) => line.trim() === 'printed-by-bash')).toHaveLength(1);
    expect(count('Grep "greet" 1 match')).toBe(1);
    expect(count('Edit greet.ts')).toBe(1);
    expect(count('+export const greet = () => "hi";')).toBe(1);
    expect(count('All three tools ran.')).toBe(1);

    const sessions = await t.http.get('/api/session').set('authorization', basic());
    const sessionID = sessions.body.data[0].id as string;
    const messages = (
      await t.http
        .get(`/session/${sessionID}/message?directory=${encodeURIComponent(project)}`)
        .set('authorization', basic())
    ).body as Array<{ parts: Json[] }>;
    const tools = messages.flatMap((m) => m.parts).filter((p) => p.type === 'tool');
    const byTool = Object.fromEntries(tools.map((p) => [p.tool, p.state]));
    expect(byTool.bash).toMatchObject({
      status: 'completed',
      metadata: { output: 'printed-by-bash\n', exit: 0, description: 'Echo a marker' },
    });
    expect(byTool.grep.metadata).toMatchObject({ matches: 1 });
    expect(byTool.edit.metadata).toMatchObject({
      diff: expect.stringContaining(
        '-export const greet = () => "hello";\n+export const greet = () => "hi";',
      ),
      filediff: { file: 'greet.ts', additions: 1, deletions: 1 },
    });
  });
});

/** The text without terminal colour codes. */
function stripAnsi(text: string): string {
  return text.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');
}
