import type { ModelConfig, ProviderConfig, ProviderConfigMap } from '../runtime/providers/provider-config';

/**
 * A location's providers and models as opencode's v2 clients list them (`Provider.V2.Info`, `Model.V2.Info`).
 * Only what identifies and prices them goes out: never settings other than the base URL, never headers, which may
 * carry credentials.
 */
function api(provider: ProviderConfig) {
  const url = provider.settings?.baseURL;
  return {
    type: 'aisdk' as const,
    package: provider.package.replace(/^aisdk:/, ''),
    ...(url ? { url } : {}),
  };
}

export function providerViews(providers: ProviderConfigMap) {
  return Object.entries(providers).map(([id, provider]) => ({
    id,
    name: provider.name ?? id,
    api: api(provider),
    request: { headers: {}, body: {} },
  }));
}

function modelView(providerID: string, provider: ProviderConfig, id: string, model: ModelConfig) {
  const cost = model.cost;
  return {
    id,
    providerID,
    name: model.name ?? id,
    api: { id, ...api(provider) },
    capabilities: { tools: true, input: ['text'], output: ['text'] },
    request: { headers: {}, body: {} },
    variants: Object.entries(model.variants ?? {}).map(([variant, body]) => ({
      id: variant,
      headers: {},
      body,
    })),
    time: { released: 0 },
    cost: cost
      ? [
          {
            input: cost.input,
            output: cost.output,
            cache: { read: cost.cache_read ?? cost.input, write: cost.cache_write ?? cost.input },
          },
        ]
      : [],
    status: 'active' as const,
    enabled: true,
    limit: { context: model.limit?.context ?? 0, output: model.limit?.output ?? 0 },
  };
}

export function modelViews(providers: ProviderConfigMap) {
  return Object.entries(providers).flatMap(([providerID, provider]) =>
    Object.entries(provider.models ?? {}).map(([id, model]) => modelView(providerID, provider, id, model)),
  );
}
