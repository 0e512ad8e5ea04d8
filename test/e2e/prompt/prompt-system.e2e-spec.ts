import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { projectDir, writeFiles } from '../../helpers/project-dir';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { TestApp } from '../../helpers/test-app';
import { api, EventLog, providerConfig, startScripted, stopScripted } from '../../helpers/prompt';

/** The system text the scripted provider received with its request `index`, whatever the protocol. */
function systemText(server: ScriptedModelServer, index: number): string {
  const body = server.requests[index].body;
  if (server.requests[index].protocol === 'anthropic') {
    return typeof body.system === 'string'
      ? body.system
      : (body.system as Array<{ text: string }>).map((part) => part.text).join('\n');
  }
  const system = body.messages.filter((m: { role: string }) => m.role === 'system');
  expect(system).toHaveLength(1);
  return system[0].content as string;
}

describe('The system prompt: base prompt per provider family, environment, instruction files, agent prompt', () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let log: EventLog;

  beforeAll(async () => ({ t, server, log } = await startScripted()));
  afterAll(() => stopScripted({ t, server }));

  it('sends the base prompt, the environment, AGENTS.md up to the repository root, the global and configured files, then the agent body', async () => {
    const root = projectDir({
      'outpost.json': providerConfig(server, { instructions: ['docs/rules/*.md', 'missing.md'] }),
      'AGENTS.md': 'Root rule: run npm test before finishing.\n',
      'CLAUDE.md': 'Ignored: AGENTS.md was found first.\n',
      'pkg/AGENTS.md': 'Package rule: keep functions small.\n',
      'docs/rules/b-style.md': 'Style rule B.\n',
      'docs/rules/a-naming.md': 'Naming rule A.\n',
      '.opencode/agent/reviewer.md':
        '---\ndescription: Reviews code\nmode: primary\n---\nYou review code and never edit it.\n',
    });
    execFileSync('git', ['init', '-q'], { cwd: root });
    writeFiles(join(t.dataDir, 'config'), { 'AGENTS.md': 'Global rule: answer in English.\n' });
    t.clock.set(Date.UTC(2026, 2, 14, 12));
    const location = join(root, 'pkg');
    const a = api(t);
    const sessionID = await a.createSession(location, { agent: 'reviewer' });
    server.script({ toolCalls: [{ name: 'list', input: {} }] }, { text: 'Looks fine.' });
    expect((await a.prompt(sessionID, { text: 'Review this package' })).status).toBe(200);
    await log.idle(sessionID);

    const system = systemText(server, 0);
    const order = [
      "You are Outpost's coding agent",
      'Here is some useful information about the environment you are running in:',
      `Instructions from: ${join(root, 'pkg/AGENTS.md')}\nPackage rule: keep functions small.`,
      `Instructions from: ${join(root, 'AGENTS.md')}\nRoot rule: run npm test before finishing.`,
      `Instructions from: ${join(t.dataDir, 'config/AGENTS.md')}\nGlobal rule: answer in English.`,
      `Instructions from: ${join(root, 'docs/rules/a-naming.md')}\nNaming rule A.`,
      `Instructions from: ${join(root, 'docs/rules/b-style.md')}\nStyle rule B.`,
      'You review code and never edit it.',
    ];
    const at = order.map((piece) => system.indexOf(piece));
    expect(at.every((index) => index >= 0)).toBe(true);
    expect([...at].sort((x, y) => x - y)).toEqual(at);
    expect(system).toContain(
      [
        '<env>',
        `  Working directory: ${location}`,
        '  Is directory a git repo: yes',
        `  Platform: ${process.platform}`,
        `  Today's date: ${new Date(Date.UTC(2026, 2, 14, 12)).toDateString()}`,
        '</env>',
      ].join('\n'),
    );
    expect(system).not.toContain('Ignored: AGENTS.md was found first.');
    // The same text at the next step (a provider can cache it), and the system prompt is not in the history.
    expect(systemText(server, 1)).toBe(system);
    expect(JSON.stringify(server.requests[1].body.messages.slice(1))).not.toContain('Root rule');
  });

  it('falls back to CLAUDE.md, says when the directory is not a repository, and gives Anthropic models their prompt', async () => {
    const project = projectDir({
      'outpost.json': JSON.stringify({
        provider: {
          claude: {
            package: 'aisdk:@ai-sdk/anthropic',
            settings: { baseURL: server.baseURL, apiKey: 'sk-scripted' },
            models: { 'claude-test': { name: 'Claude test' } },
          },
        },
      }),
      'CLAUDE.md': 'Claude rule: be brief.\n',
    });
    const a = api(t);
    const sessionID = await a.createSession(project, { model: { providerID: 'claude', id: 'claude-test' } });
    const before = server.requests.length;
    server.script({ text: 'Hello.' });
    await a.prompt(sessionID, { text: 'Hi' });
    await log.idle(sessionID);

    expect(server.requests[before].protocol).toBe('anthropic');
    const system = systemText(server, before);
    expect(system).toMatch(/^You are Outpost's coding agent, an interactive assistant/);
    expect(system).toContain('  Is directory a git repo: no');
    expect(system).toContain(`Instructions from: ${join(project, 'CLAUDE.md')}\nClaude rule: be brief.`);
  });

  it('gives GPT models the autonomous prompt and other models the plain one', async () => {
    const project = projectDir({
      'outpost.json': JSON.stringify({
        provider: {
          scripted: {
            package: 'aisdk:@ai-sdk/openai-compatible',
            settings: { baseURL: server.baseURL, apiKey: 'sk-scripted' },
            models: { 'gpt-test': {}, 'qwen-test': {} },
          },
        },
      }),
    });
    const a = api(t);
    const before = server.requests.length;
    for (const id of ['gpt-test', 'qwen-test']) {
      const sessionID = await a.createSession(project, { model: { providerID: 'scripted', id } });
      server.script({ text: 'Hello.' });
      await a.prompt(sessionID, { text: 'Hi' });
      await log.idle(sessionID);
    }
    expect(systemText(server, before)).toMatch(/^You are Outpost's coding agent\. You are an autonomous/);
    expect(systemText(server, before + 1)).toMatch(/^You are Outpost's coding agent, helping the user/);
  });
});
