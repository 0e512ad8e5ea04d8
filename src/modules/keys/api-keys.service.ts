import { dollarsToMicroCents, microCentsToDollars } from '@/common/money';
import { Injectable } from '@nestjs/common';
import { Clock } from '@/common/clock';
import { ulidId } from '@/common/ids';
import { Transaction, Transactions } from '@/database/transaction';
import { AuditService } from '../audit/audit.service';
import { Actor } from '../console-access/actor';
import { ConsoleNotFoundError } from '../console-access/console-access.errors';
import { Permission } from '../console-access/console-principal';
import { ApiKeyEntity } from './api-key.entity';
import { ApiKeysRepository, KeyOwner } from './api-keys.repository';
import { parseExpiry } from './credential-status';
import { SecretHasher } from '../console-access/secret-hasher';
import { generateToken, TOKEN_PREFIXES } from '../console-access/token-format';

/** A key's controls as requests give them: absent leaves a control as it is, null removes it. */
export interface KeyControlsInput {
  rate_limit?: { requests_per_minute?: number | null; tokens_per_minute?: number | null } | null;
  allowed_models?: string[] | null;
  monthly_budget_dollars?: number | null;
}

export interface NewKey extends KeyControlsInput {
  name: string;
  permission: Permission;
  expires_at?: string;
}

/** The columns a request's controls set (only those it names). */
function controlColumns(input: KeyControlsInput): Partial<ApiKeyEntity> {
  const columns: Partial<ApiKeyEntity> = {};
  if (input.rate_limit !== undefined) {
    columns.requestsPerMinute = input.rate_limit?.requests_per_minute ?? null;
    columns.tokensPerMinute = input.rate_limit?.tokens_per_minute ?? null;
  }
  if (input.allowed_models !== undefined)
    columns.allowedModels = input.allowed_models === null ? null : [...new Set(input.allowed_models)];
  if (input.monthly_budget_dollars !== undefined)
    columns.monthlyBudgetMicroCents =
      input.monthly_budget_dollars === null
        ? null
        : dollarsToMicroCents(input.monthly_budget_dollars).toString();
  return columns;
}

/** The API's names of the columns a change touches, as audit entries list them. */
const API_NAMES: Partial<Record<keyof ApiKeyEntity, string>> = {
  requestsPerMinute: 'rate_limit.requests_per_minute',
  tokensPerMinute: 'rate_limit.tokens_per_minute',
  allowedModels: 'allowed_models',
  monthlyBudgetMicroCents: 'monthly_budget_dollars',
};

/** A column's value as audit entries show it (budgets in dollars), under its API name. */
function auditValues(key: ApiKeyEntity, columns: Array<keyof ApiKeyEntity>): Record<string, unknown> {
  return Object.fromEntries(
    columns.map((column) => [
      API_NAMES[column] ?? column,
      column === 'monthlyBudgetMicroCents'
        ? key.monthlyBudgetMicroCents === null
          ? null
          : microCentsToDollars(key.monthlyBudgetMicroCents)
        : key[column],
    ]),
  );
}

/** What audit entries say of a key's controls. */
function controlDetails(key: ApiKeyEntity): Record<string, unknown> {
  return {
    rate_limit: { requests_per_minute: key.requestsPerMinute, tokens_per_minute: key.tokensPerMinute },
    allowed_models: key.allowedModels,
    monthly_budget_dollars:
      key.monthlyBudgetMicroCents === null ? null : microCentsToDollars(key.monthlyBudgetMicroCents),
  };
}

@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly transactions: Transactions,
    private readonly hasher: SecretHasher,
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {}

  /** Creates a key and returns it with its value, which is never stored and never shown again. */
  async create(actor: Actor, owner: KeyOwner, input: NewKey): Promise<{ entity: ApiKeyEntity; key: string }> {
    const now = this.clock.now();
    const expiresAt = parseExpiry(input.expires_at, now);
    const generated = generateToken(TOKEN_PREFIXES.serviceKey);
    const entity: ApiKeyEntity = {
      id: ulidId('key', now),
      publicId: generated.publicId,
      secretHash: this.hasher.hash(generated.secret),
      workspaceId: owner.workspaceId,
      serviceAccountId: 'serviceAccountId' in owner ? owner.serviceAccountId : null,
      userId: 'userId' in owner ? owner.userId : null,
      name: input.name,
      permission: input.permission,
      last4: generated.last4,
      createdBy: actor.id ?? 'system',
      createdAt: new Date(now),
      expiresAt,
      revokedAt: null,
      lastUsedAt: null,
      requestsPerMinute: null,
      tokensPerMinute: null,
      allowedModels: null,
      monthlyBudgetMicroCents: null,
      ...controlColumns(input),
    };
    await this.transactions.run(async (tx) => {
      await this.keys.add(tx, entity);
      await this.audit.record(tx, actor, {
        workspaceId: owner.workspaceId,
        action: 'key.created',
        target: { type: 'key', id: entity.id },
        details: {
          name: entity.name,
          permission: entity.permission,
          owner: entity.serviceAccountId ?? entity.userId,
          expires_at: expiresAt?.toISOString() ?? null,
          ...controlDetails(entity),
        },
      });
    });
    return { entity, key: generated.token };
  }

  list(owner: KeyOwner): Promise<ApiKeyEntity[]> {
    return this.keys.ofOwner(owner);
  }

  /** Renames a key or changes its controls; audited with what changed. 404 when it is not the owner's. */
  async update(
    actor: Actor,
    owner: KeyOwner,
    id: string,
    changes: KeyControlsInput & { name?: string },
  ): Promise<ApiKeyEntity> {
    return this.transactions.run(async (tx) => {
      const key = await this.keys.lockOfOwner(tx, owner, id);
      if (!key) throw new ConsoleNotFoundError(`Key not found: ${id}`);
      const columns: Partial<ApiKeyEntity> = {
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...controlColumns(changes),
      };
      const changed = (Object.keys(columns) as Array<keyof ApiKeyEntity>).filter(
        (column) => JSON.stringify(columns[column]) !== JSON.stringify(key[column]),
      );
      if (changed.length === 0) return key;
      const next = { ...key, ...columns };
      await this.keys.update(tx, id, columns);
      await this.audit.record(tx, actor, {
        workspaceId: owner.workspaceId,
        action: 'key.updated',
        target: { type: 'key', id },
        details: {
          name: next.name,
          changed: changed.map((column) => API_NAMES[column] ?? column),
          // what the changed controls were, so the entry can say "from … to …"
          previous: auditValues(key, changed),
          ...controlDetails(next),
        },
      });
      return next;
    });
  }

  /** Revokes one key of this owner (idempotent); 404 when it is not theirs. */
  async revoke(actor: Actor, owner: KeyOwner, id: string): Promise<void> {
    await this.transactions.run(async (tx) => {
      const key = await this.keys.lockOfOwner(tx, owner, id);
      if (!key) throw new ConsoleNotFoundError(`Key not found: ${id}`);
      if (key.revokedAt) return;
      await this.keys.markRevoked(tx, id, new Date(this.clock.now()));
      await this.audit.record(tx, actor, {
        workspaceId: owner.workspaceId,
        action: 'key.revoked',
        target: { type: 'key', id },
        details: { name: key.name },
      });
    });
  }

  /** Inside a member's removal: revokes every personal key they hold in that workspace. */
  revokePersonalKeys(tx: Transaction, workspaceId: string, userId: string): Promise<number> {
    return this.keys.revokeAllOfMember(tx, workspaceId, userId, new Date(this.clock.now()));
  }
}
