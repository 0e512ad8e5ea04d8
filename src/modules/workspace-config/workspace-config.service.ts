import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from '@/common/clock';
import { Transactions } from '@/database/transaction';
import { AuditService } from '../audit/audit.service';
import { Actor } from '../console-access/actor';
import { ConsoleForbiddenError } from '../console-access/console-access.errors';
import { ConsolePrincipal } from '../console-access/console-principal';
import {
  ConfigDocument,
  EMPTY_DOCUMENT,
  McpServer,
  parseConfigInput,
  ProviderEntry,
  renderConfig,
  stableJson,
  WORKSPACE_HEADER,
} from './config-document';
import { WorkspaceConfigRepository } from './workspace-config.repository';
import { WorkspacePolicies } from './workspace-policies';

export interface RenderedConfig {
  etag: string;
  /** The JSON body, or null when the caller's `If-None-Match` already names `etag`. */
  body: string | null;
}

function etagOf(rendered: string): string {
  return `"${createHash('sha256').update(rendered).digest('base64url').slice(0, 27)}"`;
}

/** What a workspace without a stored config serves: the same for every workspace (no provider, no header). */
const EMPTY_RENDERED = renderConfig('', EMPTY_DOCUMENT);
const EMPTY_ETAG = etagOf(EMPTY_RENDERED);
const EMPTY_CONFIG = { document: EMPTY_DOCUMENT, rendered: EMPTY_RENDERED, etag: EMPTY_ETAG };

/**
 * Providers another module offers every workspace beside those its admins wrote (the gateway's catalogue and the
 * workspace's connections), as entries pointing at `origin`, the console's own address as the caller reached it.
 */
/** Providers a module offers: for one workspace, or (`null`) to anyone, as `/console/.well-known/opencode` does. */
export type ProviderSource = (
  workspaceId: string | null,
  origin: string,
) => Promise<Record<string, ProviderEntry>>;

/** MCP servers a module offers every member of a workspace (the console's own), beside those its admins wrote. */
export type McpSource = (workspaceId: string, origin: string) => Record<string, McpServer>;

/** API keys (service accounts' and personal) may change everything but providers and models. */
const KEY_CREDENTIALS = new Set(['service_account_key', 'personal_key']);

@Injectable()
export class WorkspaceConfigService {
  constructor(
    private readonly configs: WorkspaceConfigRepository,
    private readonly transactions: Transactions,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    private readonly policies: WorkspacePolicies,
  ) {}

  private readonly sources: ProviderSource[] = [];
  private readonly mcpSources: McpSource[] = [];

  /** Adds providers every workspace's config offers (a module calls it at start; see ProviderSource). */
  offer(source: ProviderSource): void {
    this.sources.push(source);
  }

  /** Adds MCP servers every workspace's config offers (a module calls it at start; see McpSource). */
  offerMcp(source: McpSource): void {
    this.mcpSources.push(source);
  }

  /**
   * The config as a client reads it: what the admins wrote, plus the providers and MCP servers offered by other
   * modules (an admin's entry of the same id wins), each provider with the workspace header; the ETag covers all.
   */
  async read(workspaceId: string, known: string[], origin?: string): Promise<RenderedConfig> {
    const offered = this.sources.length + this.mcpSources.length > 0;
    if (!offered || origin === undefined) return this.stored(workspaceId, known);
    const { body } = await this.stored(workspaceId, []);
    const config = JSON.parse(body!) as {
      providers: Record<string, ProviderEntry>;
      mcp?: { servers: Record<string, McpServer> };
    };
    for (const source of this.sources) {
      for (const [id, entry] of Object.entries(await source(workspaceId, origin))) {
        config.providers[id] ??= { ...entry, headers: { ...entry.headers, [WORKSPACE_HEADER]: workspaceId } };
      }
    }
    for (const source of this.mcpSources) {
      for (const [name, server] of Object.entries(source(workspaceId, origin))) {
        config.mcp ??= { servers: {} };
        config.mcp.servers[name] ??= server;
      }
    }
    const rendered = stableJson(config);
    const etag = etagOf(rendered);
    return { etag, body: known.includes(etag) ? null : rendered };
  }

  /** What every console member may be offered before signing in: the providers offered to anyone. */
  async publicProviders(origin: string): Promise<Record<string, ProviderEntry>> {
    const providers: Record<string, ProviderEntry> = {};
    for (const source of this.sources) Object.assign(providers, await source(null, origin));
    return providers;
  }

  /**
   * One primary-key lookup: the current ETag, and the body only when the caller does not already hold it.
   * Nothing is cached in the process, so a change committed by any server is served by the next request.
   */
  private async stored(workspaceId: string, known: string[]): Promise<RenderedConfig> {
    const row = await this.configs.rendered(workspaceId, known);
    if (!row) return { etag: EMPTY_ETAG, body: known.includes(EMPTY_ETAG) ? null : EMPTY_RENDERED };
    return { etag: row.etag, body: row.rendered };
  }

  /** The search provider the workspace's config enables (`websearch.providerID`), or null. */
  websearch(workspaceId: string): Promise<ConfigDocument['websearch']> {
    return this.configs.websearch(workspaceId);
  }

  /** Applies the members present in `input` (absent: unchanged; `websearch`/`mcp` null: disabled). */
  async update(
    principal: ConsolePrincipal,
    actor: Actor,
    workspaceId: string,
    input: unknown,
    origin?: string,
  ): Promise<RenderedConfig> {
    const change = parseConfigInput(origin ? this.withoutOffered(workspaceId, origin, input) : input);
    const result = await this.transactions.run(async (tx) => {
      const stored = await this.configs.lock(tx, workspaceId, EMPTY_CONFIG, new Date(this.clock.now()));
      const before: ConfigDocument = { ...EMPTY_DOCUMENT, ...stored.document };
      const after: ConfigDocument = { ...before, ...change };
      const changed = (Object.keys(after) as Array<keyof ConfigDocument>).filter(
        (key) => stableJson(before[key]) !== stableJson(after[key]),
      );
      if (changed.includes('providers') && KEY_CREDENTIALS.has(principal.credential)) {
        throw new ConsoleForbiddenError(
          'An API key may change policies, websearch and mcp, not providers or models; sign in to manage models',
        );
      }
      if (changed.length === 0) return { etag: stored.etag, body: stored.rendered };
      const rendered = renderConfig(workspaceId, after);
      const etag = etagOf(rendered);
      const config = { document: after, rendered, etag };
      await this.configs.save(tx, workspaceId, config, new Date(this.clock.now()), actor.id);
      await this.audit.record(tx, actor, {
        workspaceId,
        action: 'config.updated',
        target: { type: 'workspace', id: workspaceId },
        details: { changed },
      });
      return { etag, body: rendered };
    });
    // Other processes hear of the change from the database's notification; this one forgets at once.
    this.policies.forget();
    return origin ? this.read(workspaceId, [], origin) : result;
  }

  /**
   * The body without the MCP servers other modules offer, as a client that read the config sends them back: they
   * are not the admins' to store (nor could they be: their header references the member's token).
   */
  private withoutOffered(workspaceId: string, origin: string, input: unknown): unknown {
    const servers = (input as { mcp?: { servers?: unknown } } | null)?.mcp?.servers;
    if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) return input;
    const kept = { ...(servers as Record<string, unknown>) };
    for (const source of this.mcpSources) {
      for (const [name, server] of Object.entries(source(workspaceId, origin))) {
        if (name in kept && stableJson(kept[name]) === stableJson(server)) delete kept[name];
      }
    }
    const mcp = (input as { mcp: Record<string, unknown> }).mcp;
    // Only offered servers: the same as none, which is stored as null (disabled), not as an empty map.
    const none = Object.keys(kept).length === 0 && Object.keys(mcp).length === 1;
    return { ...(input as object), mcp: none ? null : { ...mcp, servers: kept } };
  }
}
