import { Inject, Injectable } from '@nestjs/common';
import { microCentPrices, MicroCentPrices } from '../connections/connection-models';
import { ConnectionsService } from '../connections/connections.service';
import { WorkspacePolicies } from '../workspace-config/workspace-policies';
import { CallSchema, CatalogueModel, gatewayConfig, GatewayConfig, SERVED_BY } from './gateway.config';
import { InvalidInferenceRequestError, ModelNotFoundError } from './gateway.errors';
import { MAX_OUTPUT_TOKENS, SCHEMA_PATHS } from './inference-request';
import { DeploymentHealth } from './deployment-health';

/** The output a connection's model may produce: connections say nothing of it, so any limit a caller asks for. */
const CONNECTION_MAX_OUTPUT = MAX_OUTPUT_TOKENS;

/**
 * Where a request goes: a provider of the operator's catalogue, or one of the workspace's own connections
 * (bring your own key), with the model priced for metering.
 */
export interface UpstreamTarget {
  /** What policies name: the catalogue's provider id, or the connection's id. */
  provider: string;
  baseUrl: string;
  schema: CallSchema;
  /** The credentials to try, in order (a catalogue provider may have several; they rotate). */
  credentials: string[];
  /** Of a catalogue provider: its id, for a key that must sit out. */
  keyPool?: { provider: string; keys: string[] };
  /** Of a route's deployment: how long it may take to start answering, and to sit out after a failure. */
  timeoutMs?: number;
  cooldownMs?: number;
  /** The header the credential travels in: null for `Authorization: Bearer`. */
  credentialHeader: string | null;
  model: CatalogueModel;
  /** For messages: `provider "up"` or `connection "Our vLLM" (conn_…)`. */
  label: string;
  /** A workspace's own base URL: every dial is checked against the outbound policy (the catalogue is trusted). */
  guarded: boolean;
}

/**
 * The upstreams of one call in the order to try them: a route's deployments (balanced), then its fallbacks
 * (`fallbackAt` is the index of the first); a plain model is a plan of one.
 */
export interface Plan {
  targets: UpstreamTarget[];
  fallbackAt: number;
}

/** A model (or route) a workspace may call, as the model lists and the console's MCP server show it. */
export interface OfferedModel {
  id: string;
  /** The catalogue's provider, the connection's id, or `route`. */
  provider: string;
  name?: string;
  /** Micro-cents per million tokens; null for a route (its deployments' prices apply) or an unpriced model. */
  prices: MicroCentPrices | null;
  kind?: CatalogueModel['kind'];
  /** Of a route: the models it sends calls to. */
  serves?: string[];
}

/** An embedding model off the chat routes, and a chat model off the embeddings route (`kind` in the catalogue). */
function checkKind(model: CatalogueModel, schema: CallSchema): void {
  if (!model.kind || (model.kind === 'embedding') === (schema === 'openai-embeddings')) return;
  const what =
    model.kind === 'embedding'
      ? 'an embedding model, served at the /inference/openai/v1/embeddings route'
      : 'a chat model, not served for embeddings';
  throw new InvalidInferenceRequestError('model', `"${model.id}" is ${what}`);
}

/**
 * What a model id in a call names: a model of the operator's catalogue, or a model of one of the workspace's own
 * connections (`conn_…/<model>`, as `GET /inference/v1/models` lists them), with its provider and prices.
 */
@Injectable()
export class GatewayTargets {
  constructor(
    @Inject(gatewayConfig.KEY) private readonly config: GatewayConfig,
    private readonly policies: WorkspacePolicies,
    private readonly connections: ConnectionsService,
    private readonly health: DeploymentHealth,
  ) {}

  /** The plan of a call on a catalogue route: a route's deployments and fallbacks, or the one model named. */
  async plan(workspaceId: string, modelId: string, schema: CallSchema): Promise<Plan> {
    const route = this.config.catalogue.routes.get(modelId);
    if (!route) return { targets: [await this.forRoute(workspaceId, modelId, schema)], fallbackAt: 1 };
    const deployments = this.health.order(route.deployments);
    const fallbacks = route.fallbacks.filter((model) => !deployments.includes(model));
    const targets = [...deployments, ...fallbacks].map((model) => this.catalogueTarget(model, schema, route));
    return { targets, fallbackAt: deployments.length };
  }

  /** The upstream of a call on a catalogue route: `conn_…/<model>` is the workspace's connection, else the catalogue. */
  forRoute(
    workspaceId: string,
    modelId: string,
    schema: CallSchema,
  ): UpstreamTarget | Promise<UpstreamTarget> {
    const connection = /^(conn_[A-Za-z0-9]+)\/(.+)$/.exec(modelId);
    if (connection) return this.connectionTarget(workspaceId, connection[1], connection[2], schema);
    return this.catalogueTarget(modelId, schema);
  }

  /** The catalogue's models and routes, as the public model list shows them. */
  listed(): Array<{ id: string; provider: string }> {
    return [
      ...this.models(),
      ...[...this.config.catalogue.routes.keys()].map((id) => ({ id, provider: 'route' })),
    ];
  }

  /** A model by `<provider>/<model>`, or by its bare id when one provider has it. */
  model(id: string): CatalogueModel {
    const exact = this.config.catalogue.models.get(id);
    if (exact) return exact;
    const bare = [...this.config.catalogue.models.values()].find(
      (model) => model.upstreamId === id || model.id.endsWith(`/${id}`),
    );
    if (!bare) throw new ModelNotFoundError(id);
    return bare;
  }

  models(): CatalogueModel[] {
    return [...this.config.catalogue.models.values()];
  }

  /**
   * What a workspace may call: the catalogue's models its policies allow (with their prices), the routes one of
   * them serves (with their deployments and fallbacks), and its connections' models (with the prices set on them).
   */
  async modelsOf(workspaceId: string): Promise<OfferedModel[]> {
    const allowed: OfferedModel[] = [];
    for (const model of this.models()) {
      if (await this.policies.allows(workspaceId, model.provider, model.id))
        allowed.push({ id: model.id, provider: model.provider, prices: model.prices, kind: model.kind });
    }
    for (const route of this.config.catalogue.routes.values()) {
      const models = [...route.deployments.map((deployment) => deployment.model), ...route.fallbacks];
      if (allowed.some((model) => models.includes(model.id)))
        allowed.push({ id: route.name, provider: 'route', prices: null, serves: [...new Set(models)] });
    }
    for (const connection of await this.connections.list(workspaceId)) {
      for (const [modelId, model] of Object.entries(connection.models)) {
        const id = `${connection.id}/${modelId}`;
        if (await this.policies.allows(workspaceId, connection.id, id))
          allowed.push({
            id,
            provider: connection.id,
            name: model.name,
            prices: model.prices ? microCentPrices(model.prices) : null,
            kind: model.kind,
          });
      }
    }
    return allowed;
  }

  /** A connection's models as its own routes take them (bare ids), for `GET …/custom/{conn}/v1/models`. */
  async connectionModels(
    workspaceId: string,
    connectionId: string,
  ): Promise<Array<{ id: string; provider: string; name: string }>> {
    const connection = await this.connections.forInference(workspaceId, connectionId);
    const allowed: Array<{ id: string; provider: string; name: string }> = [];
    for (const [id, model] of connection.models) {
      if (await this.policies.allows(workspaceId, connection.id, `${connection.id}/${id}`))
        allowed.push({ id, provider: connection.id, name: model.name });
    }
    return allowed;
  }

  /** The catalogue's provider of a model, which must speak the route's schema. */
  catalogueTarget(
    modelId: string,
    schema: CallSchema,
    route?: Pick<UpstreamTarget, 'timeoutMs' | 'cooldownMs'>,
  ): UpstreamTarget {
    const model = this.model(modelId);
    const provider = this.config.catalogue.providers.get(model.provider)!;
    if (!SERVED_BY[schema].includes(provider.schema)) {
      const route = `/inference/${provider.schema === 'anthropic' ? 'anthropic' : 'openai'}/v1${SCHEMA_PATHS[provider.schema]}`;
      throw new InvalidInferenceRequestError('model', `"${model.id}" is served at the ${route} route`);
    }
    checkKind(model, schema);
    return {
      provider: provider.id,
      baseUrl: provider.baseUrl,
      schema,
      credentials: this.health.keys(provider.id, provider.credentials),
      keyPool: { provider: provider.id, keys: provider.credentials },
      credentialHeader: provider.schema === 'anthropic' ? 'x-api-key' : null,
      model,
      label: `provider "${provider.id}"`,
      guarded: false,
      timeoutMs: route?.timeoutMs,
      cooldownMs: route?.cooldownMs,
    };
  }

  /** A workspace connection's model (bring your own key); the connection must speak the route's schema. */
  async connectionTarget(
    workspaceId: string,
    connectionId: string,
    modelId: string,
    schema: CallSchema,
  ): Promise<UpstreamTarget> {
    const connection = await this.connections.forInference(workspaceId, connectionId);
    if (!SERVED_BY[schema].includes(connection.schema)) {
      const route = `/inference/custom/${connection.id}${SCHEMA_PATHS[connection.schema]}`;
      throw new InvalidInferenceRequestError('model', `connection "${connection.id}" is served at ${route}`);
    }
    const model = connection.models.get(modelId);
    if (!model) throw new ModelNotFoundError(modelId);
    const prices = model.prices ?? { input: 0n, output: 0n, cacheRead: 0n, cacheWrite: 0n };
    const served: CatalogueModel = {
      id: `${connection.id}/${modelId}`,
      provider: connection.id,
      upstreamId: modelId,
      prices,
      maxOutput: CONNECTION_MAX_OUTPUT,
      ...(model.kind ? { kind: model.kind } : {}),
    };
    checkKind(served, schema);
    return {
      provider: connection.id,
      baseUrl: connection.baseUrl,
      schema,
      credentials: [connection.credential],
      credentialHeader: connection.authMode === 'header' ? connection.authHeader : null,
      model: served,
      label: `connection "${connection.name}" (${connection.id})`,
      guarded: true,
    };
  }
}
