import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '@/common/clock';
import { randomBase62, ulidId } from '@/common/ids';
import { Transaction, Transactions } from '@/database/transaction';
import { AuditService } from '../audit/audit.service';
import { Actor } from '../console-access/actor';
import { ConsoleNotFoundError } from '../console-access/console-access.errors';
import { ResolvedCredential } from '../console-access/console-principal';
import { SecretHasher } from '../console-access/secret-hasher';
import { generateToken, parseToken, TOKEN_PREFIXES } from '../console-access/token-format';
import { deviceConfig, DeviceConfig } from './device.config';
import { DeviceSessionEntity } from './device-session.entity';
import { DeviceSessionsRepository } from './device-sessions.repository';
import { DeviceTokenEntity, DeviceTokenKind } from './device-token.entity';
import { OAuthError } from './device.errors';

export const ACCESS_TOKEN_SECONDS = 3600;
export const REFRESH_PREFIX = 'oc_rt_';
const LAST_USED_EVERY_MS = 60_000;

export interface IssuedTokens {
  access_token: string;
  token_type: 'Bearer';
  refresh_token: string;
  expires_in: number;
  org_id: string | null;
}

export interface NewSignIn {
  userId: string;
  clientId: string;
  workspaceId: string | null;
  userAgent: string | null;
}

interface RotationOutcome {
  tokens?: IssuedTokens;
  /** The token had been used before: its sign-in is now revoked. */
  revoked?: boolean;
}

/**
 * The tokens of device sign-ins. Access tokens live an hour; refresh tokens rotate on every use, and a
 * refresh token presented twice revokes its whole sign-in (RFC 9700 §4.14.2): one statement decides.
 */
@Injectable()
export class DeviceTokensService {
  constructor(
    private readonly sessions: DeviceSessionsRepository,
    private readonly transactions: Transactions,
    @Inject(deviceConfig.KEY) private readonly config: DeviceConfig,
    private readonly hasher: SecretHasher,
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {}

  private get refreshLifetimeMs(): number {
    return this.config.refreshDays * 24 * 3600_000;
  }

  /** A new sign-in with its first token pair, inside the caller's transaction (the code's redemption). */
  async startSession(tx: Transaction, signIn: NewSignIn): Promise<IssuedTokens> {
    const now = this.clock.now();
    const session: DeviceSessionEntity = {
      id: ulidId('dvs', now),
      userId: signIn.userId,
      clientId: signIn.clientId,
      workspaceId: signIn.workspaceId,
      userAgent: signIn.userAgent?.slice(0, 200) ?? null,
      createdAt: new Date(now),
      lastUsedAt: new Date(now),
      expiresAt: new Date(now + this.refreshLifetimeMs),
      revokedAt: null,
    };
    await this.sessions.add(tx, session);
    await this.audit.record(
      tx,
      { type: 'user', id: signIn.userId, sourceAddress: null },
      {
        workspaceId: signIn.workspaceId,
        action: 'device.signed_in',
        target: { type: 'device_session', id: session.id },
        details: { client_id: signIn.clientId },
      },
    );
    return this.issuePair(tx, session.id, signIn.workspaceId);
  }

  private async issuePair(
    tx: Transaction,
    sessionId: string,
    workspaceId: string | null,
  ): Promise<IssuedTokens> {
    const now = this.clock.now();
    const access = generateToken(TOKEN_PREFIXES.deviceAccess).token;
    const refresh = REFRESH_PREFIX + randomBase62(43);
    const row = (kind: DeviceTokenKind, token: string, lifetimeMs: number): DeviceTokenEntity => ({
      id: ulidId('dvt', now),
      sessionId,
      kind,
      tokenHash: this.hasher.hash(token),
      createdAt: new Date(now),
      expiresAt: new Date(now + lifetimeMs),
      usedAt: null,
    });
    await this.sessions.addTokens(tx, [
      row('access', access, ACCESS_TOKEN_SECONDS * 1000),
      row('refresh', refresh, this.refreshLifetimeMs),
    ]);
    return {
      access_token: access,
      token_type: 'Bearer',
      refresh_token: refresh,
      expires_in: ACCESS_TOKEN_SECONDS,
      org_id: workspaceId,
    };
  }

  /** `grant_type=refresh_token`: a new pair with the same workspace binding, or 400 `invalid_grant`. */
  async refresh(refreshToken: string, clientId: string): Promise<IssuedTokens> {
    const tokenHash = this.hasher.hash(refreshToken);
    const owner = await this.sessions.ownerOfRefreshToken(tokenHash);
    if (!owner) throw new OAuthError('invalid_grant', 'Unknown refresh token');
    if (owner.client_id !== clientId) {
      throw new OAuthError('invalid_client', 'client_id differs from the one this sign-in was issued to');
    }
    const outcome = await this.transactions.run(async (tx): Promise<RotationOutcome> => {
      const now = new Date(this.clock.now());
      const row = await this.sessions.rotateRefreshToken(tx, tokenHash, now);
      if (row.revoked_session) {
        await this.audit.record(
          tx,
          { type: 'system', id: null, sourceAddress: null },
          {
            workspaceId: null,
            action: 'device.refresh_reused',
            target: { type: 'device_session', id: row.revoked_session },
          },
        );
        return { revoked: true };
      }
      if (!row.consumed_session) return {};
      const session = await this.sessions.get(tx, row.consumed_session);
      await this.sessions.extend(tx, session.id, now, new Date(now.getTime() + this.refreshLifetimeMs));
      return { tokens: await this.issuePair(tx, session.id, session.workspaceId) };
    });
    if (outcome.tokens) return outcome.tokens;
    if (outcome.revoked) {
      throw new OAuthError(
        'invalid_grant',
        'This refresh token was already used: the sign-in is revoked, sign in again',
      );
    }
    throw new OAuthError('invalid_grant', 'The refresh token is used, expired or revoked');
  }

  /**
   * The `oc_at_` bearer lookup for `/console/api/`: one query joins the token, its sign-in, the person and
   * the workspace (the bound one, or the one the request names). Nothing is cached, so a revocation is seen
   * by the next request on every process.
   */
  async lookupAccess(token: string, requestedOrg: string | null): Promise<ResolvedCredential | undefined> {
    const parsed = parseToken(token);
    if (!parsed || parsed.prefix !== TOKEN_PREFIXES.deviceAccess) return undefined;
    const row = await this.sessions.findAccess(this.hasher.hash(token), requestedOrg);
    const now = this.clock.now();
    if (!row || row.session_revoked_at || row.token_expires_at.getTime() <= now) return undefined;
    const workspaceFound = row.workspace_id !== null && !row.workspace_deleted_at;
    // A bound token is dead once its workspace is gone or its person left it.
    if (row.bound_workspace_id && (!workspaceFound || !row.role)) return undefined;
    await this.touch(row.session_id, row.last_used_at, now);
    return {
      credential: 'device_token',
      credentialId: row.session_id,
      userId: row.user_id,
      email: row.email,
      name: row.name,
      serviceAccountId: null,
      permission: 'all',
      boundWorkspaceId: row.bound_workspace_id,
      workspace: { found: workspaceFound, role: row.role },
      expiresAt: row.token_expires_at,
    };
  }

  private async touch(sessionId: string, lastUsedAt: Date | null, now: number): Promise<void> {
    if (lastUsedAt && lastUsedAt.getTime() > now - LAST_USED_EVERY_MS) return;
    await this.sessions.touch(sessionId, new Date(now), new Date(now - LAST_USED_EVERY_MS));
  }

  /** The person's live device sign-ins, newest first. */
  listSessions(userId: string): Promise<DeviceSessionEntity[]> {
    return this.sessions.liveOfUser(userId, new Date(this.clock.now()));
  }

  /** Signs one device out: every token of that sign-in answers 401 / `invalid_grant` from now on. */
  async revokeSession(actor: Actor, userId: string, id: string): Promise<void> {
    await this.transactions.run(async (tx) => {
      const session = await this.sessions.revokeOfUser(tx, id, userId, new Date(this.clock.now()));
      if (!session) throw new ConsoleNotFoundError(`Device sign-in not found: ${id}`);
      await this.audit.record(tx, actor, {
        workspaceId: session.workspace_id,
        action: 'device.signed_out',
        target: { type: 'device_session', id },
        details: { client_id: session.client_id },
      });
    });
  }
}
