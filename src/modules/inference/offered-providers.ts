import { Inject, Injectable } from '@nestjs/common';
import { ConnectionsService } from '../connections/connections.service';
import type { ProviderEntry } from '../workspace-config/config-document';
import { WorkspacePolicies } from '../workspace-config/workspace-policies';
import { UpstreamSchema } from '../connections/catalogue-terms';
import { gatewayConfig, GatewayConfig } from './gateway.config';

/**
 * The variable opencode's released CLI fills with its console sign-in token (Outpost's own instances replace any
 * `apiKey` of a console provider with theirs): the key of every provider the console offers.
 */
export const CONSOLE_TOKEN_REFERENCE = '{env:OPENCODE_CONSOLE_TOKEN}';

/** The loader package opencode (and Outpost's agent) uses for each API. */
const PACKAGES: Record<UpstreamSchema, string> = {
  'openai-chat': 'aisdk:@ai-sdk/openai-compatible',
  'openai-responses': 'aisdk:@ai-sdk/openai',
  anthropic: 'aisdk:@ai-sdk/anthropic',
};

/** The catalogue's providers as offered: one per API, named so (`outpost`, `outpost-responses`, `outpost-anthropic`). */
const CATALOGUE: Record<UpstreamSchema, { id: string; name: string; path: string }> = {
  'openai-chat': { id: 'outpost', name: 'Outpost gateway', path: '/inference/openai/v1' },
  'openai-responses': {
    id: 'outpost-responses',
    name: 'Outpost gateway (Responses)',
    path: '/inference/openai/v1',
  },
  anthropic: {
    id: 'outpost-anthropic',
    name: 'Outpost gateway (Anthropic)',
    path: '/inference/anthropic/v1',
  },
};

function entry(name: string, schema: UpstreamSchema, baseURL: string): ProviderEntry {
  return {
    name,
    env: ['OPENCODE_CONSOLE_TOKEN'],
    package: PACKAGES[schema],
    settings: { baseURL, apiKey: CONSOLE_TOKEN_REFERENCE },
    headers: {},
    models: {},
  };
}

/**
 * What a workspace's config offers beside the providers its admins wrote (WorkspaceConfigService.offer): the
 * gateway's catalogue models and routes its policies allow (embedding models left out: they do not chat), and
 * each of its connections, pointing at this console's own gateway routes with the console sign-in token as key,
 * so opencode's CLI and a signed-in instance use them with no provider written by hand.
 */
@Injectable()
export class OfferedProviders {
  constructor(
    @Inject(gatewayConfig.KEY) private readonly config: GatewayConfig,
    private readonly policies: WorkspacePolicies,
    private readonly connections: ConnectionsService,
  ) {}

  /** For a workspace: what its policies allow, and its connections; for `null` (anyone): the catalogue. */
  readonly entries = async (
    workspaceId: string | null,
    origin: string,
  ): Promise<Record<string, ProviderEntry>> => {
    const allows = (provider: string, model: string) =>
      workspaceId === null ? Promise.resolve(true) : this.policies.allows(workspaceId, provider, model);
    const offered: Record<string, ProviderEntry> = {};
    const add = (schema: UpstreamSchema, model: string) => {
      const { id, name, path } = CATALOGUE[schema];
      offered[id] ??= entry(name, schema, `${origin}${path}`);
      offered[id].models[model] = { name: model };
    };
    const { providers, models, routes } = this.config.catalogue;
    for (const model of models.values()) {
      if (model.kind === 'embedding') continue;
      if (await allows(model.provider, model.id)) add(providers.get(model.provider)!.schema, model.id);
    }
    for (const route of routes.values()) {
      const first = models.get(route.deployments[0].model)!;
      if (offered[CATALOGUE[providers.get(first.provider)!.schema].id]?.models[first.id])
        add(providers.get(first.provider)!.schema, route.name);
    }
    if (workspaceId === null) return offered;
    for (const connection of await this.connections.list(workspaceId)) {
      const offer = entry(
        connection.name,
        connection.schema,
        `${origin}/inference/custom/${connection.id}/v1`,
      );
      for (const [id, model] of Object.entries(connection.models)) {
        if (model.kind === 'embedding') continue;
        if (await this.policies.allows(workspaceId, connection.id, `${connection.id}/${id}`))
          offer.models[id] = { name: model.name };
      }
      if (Object.keys(offer.models).length > 0) offered[connection.id] = offer;
    }
    return offered;
  };
}
