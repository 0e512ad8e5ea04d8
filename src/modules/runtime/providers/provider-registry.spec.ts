/**
 * ProviderRegistry: unknown providers, models and variants named in a 400, environment variables read at use time,
 * config problems, pricing, and the parsing of a config's provider map.
 */
import { cost } from '@/modules/runtime/providers/cost';
import { parseProviders, ProviderConfigMap } from '@/modules/runtime/providers/provider-config';
import { ProviderRegistry } from '@/modules/runtime/providers/provider-registry';

describe('ProviderRegistry', () => {
  const providers: ProviderConfigMap = {
    local: {
      package: 'aisdk:@ai-sdk/openai-compatible',
      settings: { baseURL: 'http://127.0.0.1:1/v1', apiKey: '{env:MISSING_KEY}' },
      models: { small: { name: 'Small', variants: { high: { reasoningEffort: 'high' } } } },
    },
    nourl: { package: 'aisdk:@ai-sdk/openai-compatible', models: { m: {} } },
    odd: { package: 'aisdk:@ai-sdk/other' as never, models: { m: {} } },
  };
  const registry = new ProviderRegistry(providers, { OTHER: 'x' });

  it('names an unknown provider, model or variant in a 400', () => {
    expect(() => registry.resolve({ providerID: 'nope', id: 'small' })).toThrow(
      expect.objectContaining({ status: 400, tag: 'ProviderNotFoundError', fields: { providerID: 'nope' } }),
    );
    expect(() => registry.resolve({ providerID: 'local', id: 'big' })).toThrow(
      expect.objectContaining({
        status: 400,
        tag: 'ModelNotFoundError',
        fields: { providerID: 'local', modelID: 'big' },
      }),
    );
    expect(() => registry.model({ providerID: 'local', id: 'small', variant: 'max' })).toThrow(
      expect.objectContaining({
        status: 400,
        fields: { providerID: 'local', modelID: 'small', variant: 'max' },
      }),
    );
    expect(registry.has({ providerID: 'local', id: 'small', variant: 'high' })).toBe(true);
    expect(registry.has({ providerID: 'local', id: 'big' })).toBe(false);
  });

  it('names a missing environment variable without building the model', () => {
    expect(() => registry.resolve({ providerID: 'local', id: 'small' })).toThrow(
      /Provider local: environment variable MISSING_KEY is not set/,
    );
  });

  it('reads the environment at use time and passes variant options under the provider key', () => {
    const env: NodeJS.ProcessEnv = {};
    const late = new ProviderRegistry(providers, env);
    env.MISSING_KEY = 'now-set';
    const resolved = late.resolve({ providerID: 'local', id: 'small', variant: 'high' });
    expect(resolved.providerOptions).toEqual({ local: { reasoningEffort: 'high' } });
    expect(resolved.config.name).toBe('Small');
  });

  it('reports config problems: no base URL for openai-compatible, unknown package', () => {
    expect(() => registry.resolve({ providerID: 'nourl', id: 'm' })).toThrow(/settings.baseURL is required/);
    expect(() => registry.resolve({ providerID: 'odd', id: 'm' })).toThrow(
      /unknown package aisdk:@ai-sdk\/other/,
    );
  });

  it('prices nothing for a model without cost', () => {
    expect(cost(undefined, { input: 10, output: 10, reasoning: 0, cache: { read: 0, write: 0 } })).toBe(0);
  });

  it('keeps the valid entries of a config provider map and names every broken one', () => {
    const parsed = parseProviders({
      good: {
        package: 'aisdk:@ai-sdk/anthropic',
        settings: { apiKey: '{env:KEY}' },
        models: {
          fine: { name: 'Fine', cost: { input: 3, output: 15 }, limit: { context: 200000 } },
          cheap: { cost: { input: -1, output: 1 } },
          huge: { limit: { context: 1.5 } },
        },
      },
      wrongPackage: { package: 'openai', models: {} },
      noModels: { package: 'aisdk:@ai-sdk/openai' },
      badHeaders: { package: 'aisdk:@ai-sdk/openai', headers: { 'x-n': 1 }, models: {} },
    });
    expect(Object.keys(parsed.providers)).toEqual(['good']);
    expect(Object.keys(parsed.providers.good.models)).toEqual(['fine']);
    expect(parsed.problems).toEqual([
      'provider.good.models.cheap: cost.input must be a number of USD per million tokens',
      'provider.good.models.huge: limit.context must be a positive integer',
      expect.stringMatching(
        /^provider\.wrongPackage: package must be one of aisdk:@ai-sdk\/openai-compatible/,
      ),
      'provider.noModels: models must be an object keyed by model id',
      'provider.badHeaders: headers must map names to strings',
    ]);
    expect(parseProviders(undefined)).toEqual({ providers: {}, problems: [] });
    expect(parseProviders([1]).problems).toEqual(['provider: must be an object keyed by provider id']);
  });
});
