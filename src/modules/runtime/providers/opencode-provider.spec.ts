import { parseProviders } from './provider-config';

describe("opencode's provider shape in opencode.json", () => {
  it("opencode's custom provider example: npm and options become Outpost's package and settings", () => {
    const { providers, problems } = parseProviders({
      myprovider: {
        npm: '@ai-sdk/openai-compatible',
        name: 'My AI ProviderDisplay Name',
        options: {
          baseURL: 'https://api.myprovider.com/v1',
          apiKey: '{env:MY_KEY}',
          headers: { 'x-team': 'a' },
        },
        models: {
          'my-model-name': { name: 'My Model Display Name', limit: { context: 200000, output: 65536 } },
        },
      },
    });
    expect(problems).toEqual([]);
    expect(providers.myprovider).toEqual({
      name: 'My AI ProviderDisplay Name',
      package: 'aisdk:@ai-sdk/openai-compatible',
      settings: { baseURL: 'https://api.myprovider.com/v1', apiKey: '{env:MY_KEY}' },
      headers: { 'x-team': 'a' },
      models: {
        'my-model-name': { name: 'My Model Display Name', limit: { context: 200000, output: 65536 } },
      },
    });
  });

  it('a known provider id needs no npm; a baseURL alone means an OpenAI-compatible server', () => {
    const { providers } = parseProviders({
      anthropic: { options: { apiKey: '{env:ANTHROPIC_API_KEY}' }, models: { 'claude-sonnet-4-5': {} } },
      openai: { options: { apiKey: 'sk' }, models: { 'gpt-5': {} } },
      ollama: { options: { baseURL: 'http://localhost:11434/v1' }, models: { llama2: { name: 'Llama 2' } } },
    });
    expect(providers.anthropic.package).toBe('aisdk:@ai-sdk/anthropic');
    expect(providers.openai.package).toBe('aisdk:@ai-sdk/openai');
    expect(providers.ollama.package).toBe('aisdk:@ai-sdk/openai-compatible');
  });

  it('what Outpost cannot use is said, naming the provider and the field; the rest still loads', () => {
    const { providers, problems } = parseProviders({
      bedrock: { npm: '@ai-sdk/amazon-bedrock', models: { claude: {} } },
      mystery: { models: { m: {} } },
      tuned: {
        npm: '@ai-sdk/openai-compatible',
        options: { baseURL: 'http://127.0.0.1:1/v1', timeout: 600000 },
        models: {},
      },
    });
    expect(Object.keys(providers)).toEqual(['tuned']);
    expect(problems).toEqual([
      expect.stringMatching(/^provider\.bedrock\.npm: @ai-sdk\/amazon-bedrock is not one Outpost drives/),
      expect.stringMatching(/^provider\.mystery\.npm: name the provider's package/),
      'provider.tuned.options.timeout: not used by Outpost',
      expect.stringMatching(/^provider\.tuned\.models: none listed/),
    ]);
  });

  it("Outpost's own shape is read as before", () => {
    const own = { package: 'aisdk:@ai-sdk/openai', settings: { apiKey: 'x' }, models: { m: {} } };
    expect(parseProviders({ own }).providers.own).toEqual(own);
  });
});
