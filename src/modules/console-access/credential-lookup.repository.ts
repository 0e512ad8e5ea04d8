import { pgPool } from '@/database/pool-query';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '@/common/clock';
import { sha256 } from '@/common/hash';
import { parseToken, TOKEN_PREFIXES } from './token-format';
import { SecretHasher } from './secret-hasher';
import { Permission, ResolvedCredential, Role } from './console-principal';

const LAST_USED_EVERY_MS = 60_000;

interface WorkspaceColumns {
  workspace_id: string | null;
  workspace_deleted_at: Date | null;
  role: Role | null;
}

interface KeyRow {
  id: string;
  secret_hash: string;
  workspace_id: string;
  workspace_deleted_at: Date | null;
  service_account_id: string | null;
  service_account_deleted_at: Date | null;
  user_id: string | null;
  email: string | null;
  name: string | null;
  role: Role | null;
  permission: Permission;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  requests_per_minute: number | null;
  tokens_per_minute: number | null;
  allowed_models: string[] | null;
  monthly_budget_micro_cents: string | null;
}

interface PersonRow extends WorkspaceColumns {
  id: string;
  secret_hash?: string;
  user_id: string;
  email: string;
  name: string;
  expires_at: Date | null;
  revoked_at?: Date | null;
  last_used_at?: Date | null;
}

/** The workspace the request names (for unbound credentials), joined in the same statement. */
const WORKSPACE_JOIN = `
  LEFT JOIN workspace w ON w.id = $2::varchar
  LEFT JOIN membership m ON m.workspace_id = w.id AND m.user_id = u.id`;

/**
 * Every console credential is checked with ONE indexed query (by public id or by hash) that also joins the
 * workspace and the caller's membership. The joins read the workspace, membership and sign-in tables of the
 * identity and workspaces modules. Bearer credentials found here are then cached by `CredentialCache`.
 */
@Injectable()
export class CredentialLookupRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly hasher: SecretHasher,
    private readonly clock: Clock,
  ) {}

  /**
   * Runs a lookup as a named prepared statement on the PostgreSQL pool (planned once per connection, which
   * matters on the hottest path).
   */
  private async select<T>(name: string, text: string, values: unknown[]): Promise<T | undefined> {
    return (await pgPool(this.db).query({ name, text, values })).rows[0] as T | undefined;
  }

  async apiKey(token: string): Promise<ResolvedCredential | undefined> {
    const parsed = parseToken(token);
    if (!parsed || parsed.prefix !== TOKEN_PREFIXES.serviceKey) return undefined;
    const row = await this.select<KeyRow>(
      'console_api_key',
      `SELECT k.id, k.secret_hash, k.workspace_id, w.deleted_at AS workspace_deleted_at,
              k.service_account_id, sa.deleted_at AS service_account_deleted_at, k.user_id, u.email,
              COALESCE(sa.name, u.name) AS name, m.role, k.permission, k.expires_at, k.revoked_at, k.last_used_at,
              k.requests_per_minute, k.tokens_per_minute, k.allowed_models,
              k.monthly_budget_micro_cents
         FROM api_key k
         JOIN workspace w ON w.id = k.workspace_id
         LEFT JOIN service_account sa ON sa.id = k.service_account_id
         LEFT JOIN users u ON u.id = k.user_id
         LEFT JOIN membership m ON m.workspace_id = k.workspace_id AND m.user_id = k.user_id
        WHERE k.public_id = $1`,
      [parsed.publicId],
    );
    if (!row || !this.hasher.matches(parsed.secret, row.secret_hash) || !this.isLive(row)) return undefined;
    if (row.workspace_deleted_at || row.service_account_deleted_at) return undefined;
    const isServiceAccount = row.service_account_id !== null;
    // A personal key acts with its owner's current role; once they leave the workspace it is dead.
    const role: Role | null = isServiceAccount ? (row.permission === 'all' ? 'admin' : 'member') : row.role;
    if (!role) return undefined;
    await this.touch('api_key', row);
    return {
      credential: isServiceAccount ? 'service_account_key' : 'personal_key',
      credentialId: row.id,
      userId: row.user_id,
      email: row.email,
      name: row.name ?? '',
      serviceAccountId: row.service_account_id,
      permission: row.permission,
      boundWorkspaceId: row.workspace_id,
      workspace: { found: true, role },
      expiresAt: row.expires_at,
      ...(row.requests_per_minute !== null ||
      row.tokens_per_minute !== null ||
      row.allowed_models !== null ||
      row.monthly_budget_micro_cents !== null
        ? {
            controls: {
              requestsPerMinute: row.requests_per_minute,
              tokensPerMinute: row.tokens_per_minute,
              allowedModels: row.allowed_models,
              monthlyBudgetMicroCents:
                row.monthly_budget_micro_cents === null ? null : BigInt(row.monthly_budget_micro_cents),
            },
          }
        : {}),
    };
  }

  async userToken(token: string, requestedOrg: string | null): Promise<ResolvedCredential | undefined> {
    const parsed = parseToken(token);
    if (!parsed || parsed.prefix !== TOKEN_PREFIXES.userToken) return undefined;
    const row = await this.select<PersonRow>(
      'console_user_token',
      `SELECT t.id, t.secret_hash, t.expires_at, t.revoked_at, t.last_used_at, u.id AS user_id, u.email, u.name,
              w.id AS workspace_id, w.deleted_at AS workspace_deleted_at, m.role
         FROM user_token t
         JOIN users u ON u.id = t.user_id ${WORKSPACE_JOIN}
        WHERE t.public_id = $1`,
      [parsed.publicId, requestedOrg],
    );
    if (!row || !this.hasher.matches(parsed.secret, row.secret_hash!) || !this.isLive(row)) return undefined;
    await this.touch('user_token', row);
    return { ...this.person('user_token', row), expiresAt: row.expires_at };
  }

  async session(cookieValue: string, requestedOrg: string | null): Promise<ResolvedCredential | undefined> {
    const row = await this.select<PersonRow>(
      'console_session',
      `SELECT s.id, s.expires_at, u.id AS user_id, u.email, u.name,
              w.id AS workspace_id, w.deleted_at AS workspace_deleted_at, m.role
         FROM console_session s
         JOIN users u ON u.id = s.user_id ${WORKSPACE_JOIN}
        WHERE s.token_hash = $1`,
      [sha256(cookieValue), requestedOrg],
    );
    if (!row || !this.isLive(row)) return undefined;
    return this.person('session', row);
  }

  private person(credential: 'user_token' | 'session', row: PersonRow): ResolvedCredential {
    return {
      credential,
      credentialId: row.id,
      userId: row.user_id,
      email: row.email,
      name: row.name,
      serviceAccountId: null,
      permission: 'all',
      boundWorkspaceId: null,
      workspace: { found: row.workspace_id !== null && !row.workspace_deleted_at, role: row.role },
    };
  }

  private isLive(row: { expires_at: Date | null; revoked_at?: Date | null }): boolean {
    if (row.revoked_at) return false;
    return row.expires_at === null || row.expires_at.getTime() > this.clock.now();
  }

  /** `last_used_at` moves at most once a minute per key, so a busy key costs one write a minute. */
  private async touch(table: 'api_key' | 'user_token', row: { id: string; last_used_at?: Date | null }) {
    const now = this.clock.now();
    if (row.last_used_at && row.last_used_at.getTime() > now - LAST_USED_EVERY_MS) return;
    await this.db.query(
      `UPDATE ${table} SET last_used_at = $2 WHERE id = $1 AND (last_used_at IS NULL OR last_used_at <= $3)`,
      [row.id, new Date(now), new Date(now - LAST_USED_EVERY_MS)],
    );
  }
}
