import { opencode, opencodeEnv } from '../../helpers/opencode';
import { api, EventLog } from '../../helpers/prompt';
import { projectDir } from '../../helpers/project-dir';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { createTestApp, TestApp } from '../../helpers/test-app';

jest.setTimeout(180_000);

type Data = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * `opencode.json` files as opencode's documentation writes them (its provider examples: a custom OpenAI-compatible
 * provider, Ollama, Anthropic and OpenAI with their own keys, and a package Outpost cannot drive beside a good one),
 * each pointed at the scripted model server. Each lists its models and answers a prompt, unchanged.
 */
describe("a user's own opencode.json, unchanged", () => {
  let t: TestApp;
  let model: ScriptedModelServer;

  beforeAll(async () => {
    model = await ScriptedModelServer.start();
    // Read when a model is built, as a user's shell would have them.
    Object.assign(process.env, { MY_PROVIDER_KEY: 'sk-mine', ANTHROPIC_API_KEY: 'sk-ant' });
    t = await createTestApp();
  });
  afterAll(async () => {
    delete process.env.MY_PROVIDER_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    await t.close();
    await model.close();
  });

  const configs = (baseURL: string): Record<string, { config: object; model: string; protocol: string }> => ({
    'custom OpenAI-compatible provider, with a default model and its key from the environment': {
      config: {
        $schema: 'https://opencode.ai/config.json',
        provider: {
          myprovider: {
            npm: '@ai-sdk/openai-compatible',
            name: 'My AI Provider',
            options: { baseURL, apiKey: '{env:MY_PROVIDER_KEY}' },
            models: {
              'other-model': { name: 'Other' },
              'my-model-name': { name: 'My Model', limit: { context: 200000, output: 65536 } },
            },
          },
        },
        model: 'myprovider/my-model-name',
      },
      model: 'myprovider/my-model-name',
      protocol: 'openai',
    },
    'Ollama on its own base URL': {
      config: {
        provider: {
          ollama: {
            npm: '@ai-sdk/openai-compatible',
            name: 'Ollama (local)',
            options: { baseURL },
            models: { 'llama3.2': { name: 'Llama 3.2' } },
          },
        },
      },
      model: 'ollama/llama3.2',
      protocol: 'openai',
    },
    'Anthropic by its id, no npm, its base URL and key in options': {
      config: {
        provider: {
          anthropic: {
            options: { baseURL, apiKey: '{env:ANTHROPIC_API_KEY}' },
            models: { 'claude-sonnet-4-5': { name: 'Claude Sonnet 4.5' } },
          },
        },
        model: 'anthropic/claude-sonnet-4-5',
      },
      model: 'anthropic/claude-sonnet-4-5',
      protocol: 'anthropic',
    },
    'OpenAI by its id': {
      config: {
        provider: {
          openai: { options: { baseURL, apiKey: 'sk-openai' }, models: { 'gpt-5': { name: 'GPT-5' } } },
        },
      },
      model: 'openai/gpt-5',
      protocol: 'openai',
    },
    'a package Outpost cannot drive beside one it can: the good one works': {
      config: {
        provider: {
          bedrock: { npm: '@ai-sdk/amazon-bedrock', models: { claude: {} } },
          local: { npm: '@ai-sdk/openai-compatible', options: { baseURL }, models: { small: {} } },
        },
      },
      model: 'local/small',
      protocol: 'openai',
    },
  });

  it.each(Object.keys(configs('')))('%s: its models are listed and a prompt is answered', async (name) => {
    const { config, model: chosen, protocol } = configs(model.baseURL)[name];
    const dir = projectDir({ 'opencode.json': JSON.stringify(config, null, 2) });
    const a = api(t);
    const listed = await a.get(`/config/providers?directory=${encodeURIComponent(dir)}`);
    expect(listed.status).toBe(200);
    const [providerID, modelID] = chosen.split('/');
    const provider = (listed.body.providers as Data[]).find((p) => p.id === providerID);
    expect(Object.keys(provider!.models)).toContain(modelID);
    expect(listed.body.default[providerID]).toBe(modelID);
    expect((listed.body.providers as Data[]).map((p) => p.id)).not.toContain('bedrock');

    const log = new EventLog(t);
    const before = model.requests.length;
    model.script({ text: `answered by ${chosen}`, usage: { input: 3, output: 4 } });
    const sessionID = await a.createSession(dir, { model: { providerID, id: modelID } });
    expect((await a.prompt(sessionID, { text: 'hello' })).status).toBe(200);
    const idle = await log.idle(sessionID);
    const messages = await a.messages(sessionID);
    expect({ outcome: idle.data.outcome, error: messages[1].error }).toEqual({
      outcome: 'succeeded',
      error: undefined,
    });
    expect(messages[1].content[0].text).toBe(`answered by ${chosen}`);
    const request = model.requests[before];
    expect(request.protocol).toBe(protocol);
    expect((request.body as Data).model).toBe(modelID);
  });

  it("opencode run --attach without --model uses the config's model", async () => {
    const { config } = configs(model.baseURL)[
      'custom OpenAI-compatible provider, with a default model and its key from the environment'
    ];
    const dir = projectDir({ 'opencode.json': JSON.stringify(config) });
    const before = model.requests.length;
    model.script({ text: 'the default model answered' });
    const run = await opencode(['run', '--attach', t.url, '--dir', dir, 'hi there'], { env: opencodeEnv() });
    expect({ code: run.code, stdout: run.stdout }).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('the default model answered'),
    });
    expect((model.requests[before].body as Data).model).toBe('my-model-name');
    expect(model.requests[before].headers.authorization).toBe('Bearer sk-mine');
  });
});
