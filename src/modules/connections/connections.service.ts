import { Injectable } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { Clock } from '@/common/clock';
import { InvalidRequestError } from '@/common/errors';
import { OutboundPolicy } from '@/common/net/outbound-policy';
import { ulidId } from '@/common/ids';
import { Transactions } from '@/database/transaction';
import { AuditService } from '../audit/audit.service';
import { Actor } from '../console-access/actor';
import { AuthMode, ConnectionEntity, StoredModels } from './connection.entity';
import { ModelKind, UpstreamSchema } from './catalogue-terms';
import { MicroCentPrices, microCentPrices, parseModels } from './connection-models';
import { ConnectionNotFoundError } from './connections.errors';
import { ConnectionsRepository } from './connections.repository';
import { CredentialCipher } from './credential-cipher';
import { checkReachable } from './reachable-base-url';

export interface NewConnection {
  name: string;
  baseUrl: string;
  schema: UpstreamSchema;
  auth: { mode: AuthMode; header?: string; credential: string };
  /** As the request sent it: checked here (400 naming the member at fault). */
  models: unknown;
}

export interface ConnectionChanges {
  name?: string;
  baseUrl?: string;
  schema?: UpstreamSchema;
  auth?: { mode?: AuthMode; header?: string; credential?: string };
  models?: unknown;
}

/** What the gateway needs to forward a request through a connection. */
export interface InferenceConnection {
  id: string;
  workspaceId: string;
  name: string;
  /** Without a trailing slash; the gateway appends `/chat/completions`, `/responses` or `/messages`. */
  baseUrl: string;
  schema: UpstreamSchema;
  /** `bearer`: `Authorization: Bearer <credential>`; `header`: `<authHeader>: <credential>`. */
  authMode: AuthMode;
  authHeader: string | null;
  /** Decrypted. Never log it. */
  credential: string;
  /** By the id callers send in `model`; prices in integer micro-cents per million tokens, null when not priced. */
  models: Map<string, { name: string; prices: MicroCentPrices | null; kind?: ModelKind }>;
}

/** How long `forInference` answers from memory; changes made by this process are seen at once. */
export const INFERENCE_CACHE_MS = 1_000;
const CACHE_LIMIT = 10_000;

/** The credential's last four characters, unless that would show too much of a short one. */
export function lastFour(credential: string): string | null {
  return credential.length >= 8 ? credential.slice(-4) : null;
}

/** Base URLs are kept without trailing slashes, so appending `/chat/completions` gives one slash. */
function normalizeBaseUrl(url: string): string {
  return url.replace(/\/+$/, '');
}

/** Bring-your-own-key connections of a workspace: the console's CRUD and the gateway's lookup. */
@Injectable()
export class ConnectionsService {
  private readonly cache = new Map<string, { expires: number; value: Promise<InferenceConnection> }>();

  constructor(
    private readonly connections: ConnectionsRepository,
    private readonly transactions: Transactions,
    private readonly cipher: CredentialCipher,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    private readonly outbound: OutboundPolicy,
  ) {}

  async create(actor: Actor, workspaceId: string, input: NewConnection): Promise<ConnectionEntity> {
    const models = parseModels(input.models);
    await checkReachable(this.outbound, input.baseUrl);
    const now = this.clock.now();
    const id = ulidId('conn', now);
    const connection: ConnectionEntity = {
      id,
      workspaceId,
      name: input.name,
      baseUrl: normalizeBaseUrl(input.baseUrl),
      schema: input.schema,
      authMode: input.auth.mode,
      authHeader: input.auth.mode === 'header' ? input.auth.header! : null,
      credentialCipher: this.cipher.encrypt(input.auth.credential, { workspaceId, id }),
      credentialLast4: lastFour(input.auth.credential),
      models,
      createdBy: actor.id ?? 'system',
      createdAt: new Date(now),
      updatedAt: new Date(now),
    };
    await this.transactions.run(async (tx) => {
      await this.connections.add(tx, connection);
      await this.audit.record(tx, actor, {
        workspaceId,
        action: 'connection.created',
        target: { type: 'connection', id },
        details: {
          name: connection.name,
          base_url: connection.baseUrl,
          schema: connection.schema,
          auth_mode: connection.authMode,
          ...(connection.authHeader ? { auth_header: connection.authHeader } : {}),
          models: Object.keys(models),
        },
      });
    });
    this.invalidate(workspaceId, id);
    return connection;
  }

  list(workspaceId: string): Promise<ConnectionEntity[]> {
    return this.connections.ofWorkspace(workspaceId);
  }

  /** 404 unless the connection exists in this workspace. */
  async get(workspaceId: string, id: string): Promise<ConnectionEntity> {
    const connection = await this.connections.find(workspaceId, id);
    if (!connection) throw new ConnectionNotFoundError(id);
    return connection;
  }

  /** Applies the members present; a new credential replaces the stored one (write-only). */
  async update(
    actor: Actor,
    workspaceId: string,
    id: string,
    changes: ConnectionChanges,
  ): Promise<ConnectionEntity> {
    const models = changes.models === undefined ? undefined : parseModels(changes.models);
    if (changes.baseUrl !== undefined) await checkReachable(this.outbound, changes.baseUrl);
    const updated = await this.transactions.run(async (tx) => {
      const current = await this.connections.lock(tx, workspaceId, id);
      if (!current) throw new ConnectionNotFoundError(id);
      const changed: string[] = [];
      const next: ConnectionEntity = { ...current };
      if (changes.name !== undefined && changes.name !== current.name) {
        next.name = changes.name;
        changed.push('name');
      }
      if (changes.baseUrl !== undefined && normalizeBaseUrl(changes.baseUrl) !== current.baseUrl) {
        next.baseUrl = normalizeBaseUrl(changes.baseUrl);
        changed.push('base_url');
      }
      if (changes.schema !== undefined && changes.schema !== current.schema) {
        next.schema = changes.schema;
        changed.push('schema');
      }
      if (changes.auth) {
        const mode = changes.auth.mode ?? current.authMode;
        if (mode === 'bearer' && changes.auth.header !== undefined)
          throw new InvalidRequestError('auth.header: is only for mode "header"', 'auth.header');
        const header = mode === 'header' ? (changes.auth.header ?? current.authHeader) : null;
        if (mode === 'header' && !header)
          throw new InvalidRequestError('auth.header: is required when mode is "header"', 'auth.header');
        if (mode !== current.authMode) changed.push('auth.mode');
        if (header !== current.authHeader) changed.push('auth.header');
        next.authMode = mode;
        next.authHeader = header;
        if (changes.auth.credential !== undefined) {
          next.credentialCipher = this.cipher.encrypt(changes.auth.credential, { workspaceId, id });
          next.credentialLast4 = lastFour(changes.auth.credential);
          changed.push('auth.credential');
        }
      }
      if (models !== undefined && JSON.stringify(models) !== JSON.stringify(current.models)) {
        next.models = models;
        changed.push('models');
      }
      if (changed.length === 0) return current;
      next.updatedAt = new Date(this.clock.now());
      await this.connections.save(tx, next);
      await this.audit.record(tx, actor, {
        workspaceId,
        action: 'connection.updated',
        target: { type: 'connection', id },
        details: {
          changed,
          ...(changed.includes('name') ? { name: next.name } : {}),
          ...(changed.includes('base_url') ? { base_url: next.baseUrl } : {}),
          ...(changed.includes('schema') ? { schema: next.schema } : {}),
          ...(changed.includes('auth.mode') ? { auth_mode: next.authMode } : {}),
          ...(changed.includes('auth.header') ? { auth_header: next.authHeader } : {}),
          ...(changed.includes('models') ? { models: Object.keys(next.models) } : {}),
        },
      });
      return next;
    });
    this.invalidate(workspaceId, id);
    return updated;
  }

  async remove(actor: Actor, workspaceId: string, id: string): Promise<void> {
    await this.transactions.run(async (tx) => {
      const removed = await this.connections.remove(tx, workspaceId, id);
      if (!removed) throw new ConnectionNotFoundError(id);
      await this.audit.record(tx, actor, {
        workspaceId,
        action: 'connection.deleted',
        target: { type: 'connection', id },
        details: { name: removed.name },
      });
    });
    this.invalidate(workspaceId, id);
  }

  /**
   * The connection with its credential decrypted, for the gateway. Answers from memory for up to
   * INFERENCE_CACHE_MS (concurrent look-ups share one query); changes made through this process are seen at once.
   * Throws `ConnectionNotFoundError` (also for another workspace's connection) or `ConnectionCredentialError`.
   */
  forInference(workspaceId: string, connectionId: string): Promise<InferenceConnection> {
    const key = cacheKey(workspaceId, connectionId);
    const now = performance.now();
    const hit = this.cache.get(key);
    if (hit && hit.expires > now) return hit.value;
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    const entry = {
      expires: now + INFERENCE_CACHE_MS,
      value: this.loadForInference(workspaceId, connectionId),
    };
    this.cache.set(key, entry);
    // A failure other than "not found" (database down, undecryptable credential) is not remembered.
    entry.value.catch((error: unknown) => {
      if (!(error instanceof ConnectionNotFoundError) && this.cache.get(key) === entry)
        this.cache.delete(key);
    });
    return entry.value;
  }

  /** Forgets what `forInference` remembers of a connection. */
  invalidate(workspaceId: string, connectionId: string): void {
    this.cache.delete(cacheKey(workspaceId, connectionId));
  }

  private async loadForInference(workspaceId: string, id: string): Promise<InferenceConnection> {
    const row = await this.connections.find(workspaceId, id);
    if (!row) throw new ConnectionNotFoundError(id);
    return {
      id: row.id,
      workspaceId: row.workspaceId,
      name: row.name,
      baseUrl: row.baseUrl,
      schema: row.schema,
      authMode: row.authMode,
      authHeader: row.authHeader,
      credential: this.cipher.decrypt(row.credentialCipher, { workspaceId, id }),
      models: modelMap(row.models),
    };
  }
}

function cacheKey(workspaceId: string, connectionId: string): string {
  return `${workspaceId}\u0000${connectionId}`;
}

function modelMap(models: StoredModels): InferenceConnection['models'] {
  return new Map(
    Object.entries(models).map(([id, model]) => [
      id,
      {
        name: model.name,
        prices: model.prices ? microCentPrices(model.prices) : null,
        ...(model.kind ? { kind: model.kind } : {}),
      },
    ]),
  );
}
