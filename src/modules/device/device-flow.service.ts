import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Clock } from '@/common/clock';
import { TooManyRequestsError } from '@/common/errors';
import { ulidId } from '@/common/ids';
import { Transactions } from '@/database/transaction';
import { AuditService } from '../audit/audit.service';
import { sha256 } from '@/common/hash';
import { Actor } from '../console-access/actor';
import { ConsoleForbiddenError, ConsoleNotFoundError } from '../console-access/console-access.errors';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { CodeAttemptsRepository } from './code-attempts.repository';
import { DeviceAuthorizationEntity } from './device-authorization.entity';
import { DeviceAuthorizationsRepository } from './device-authorizations.repository';
import { deviceConfig, DeviceConfig } from './device.config';
import { DeviceTokensService, IssuedTokens } from './device-tokens.service';
import { OAuthError } from './device.errors';
import { formatUserCode, generateUserCode, normalizeUserCode } from './user-code';
import { SecretHasher } from '../console-access/secret-hasher';
import { RateLimiter } from '@/common/rate-limit/rate-limiter';

export const DEVICE_CODE_SECONDS = 600;
export const POLL_INTERVAL_SECONDS = 5;
export const SLOW_DOWN_STEP_SECONDS = 5;
export const WRONG_CODES_PER_MINUTE = 5;
const WRONG_CODE_WINDOW_MS = 60_000;
/** Finished requests are kept a day past expiry (for `invalid_grant` rather than a bare unknown), then removed. */
const KEEP_AFTER_EXPIRY_MS = 24 * 3600_000;

export interface DeviceCodeResponse {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

/** What the approval page shows about a pending request. */
export interface PendingAuthorization {
  clientId: string;
  userCode: string;
  supportsOrgScope: boolean;
  expiresAt: Date;
}

/** The RFC 8628 device authorization grant: codes, polling, and the person's decision. */
@Injectable()
export class DeviceFlowService {
  constructor(
    private readonly authorizations: DeviceAuthorizationsRepository,
    private readonly attempts: CodeAttemptsRepository,
    private readonly transactions: Transactions,
    @Inject(deviceConfig.KEY) private readonly config: DeviceConfig,
    private readonly tokens: DeviceTokensService,
    private readonly workspaces: WorkspacesService,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    private readonly hasher: SecretHasher,
    private readonly limiter: RateLimiter,
  ) {}

  checkClient(clientId: string): void {
    if (!this.config.clients.includes(clientId)) {
      throw new OAuthError('invalid_client', `Unknown client_id: ${clientId}`);
    }
  }

  async requestCode(
    clientId: string,
    supportsOrgScope: boolean,
    address: string,
  ): Promise<DeviceCodeResponse> {
    this.checkClient(clientId);
    // Anonymous: per address, shared by every process, so nobody fills the table with codes.
    await this.limiter.consume(
      `device-code:${address}`,
      { max: this.config.codesPerMinute, windowMs: 60_000 },
      'Too many device sign-ins started from this address; try again in a minute',
    );
    const now = this.clock.now();
    const deviceCode = randomBytes(32).toString('base64url');
    await this.authorizations.removeExpiredBefore(new Date(now - KEEP_AFTER_EXPIRY_MS));
    for (let attempt = 0; ; attempt++) {
      const userCode = generateUserCode();
      const authorization: DeviceAuthorizationEntity = {
        id: ulidId('dva', now),
        deviceCodeHash: sha256(deviceCode),
        userCodeHash: this.hasher.hash(userCode),
        clientId,
        supportsOrgScope,
        status: 'pending',
        pollInterval: POLL_INTERVAL_SECONDS,
        lastPolledAt: null,
        createdAt: new Date(now),
        expiresAt: new Date(now + DEVICE_CODE_SECONDS * 1000),
        userId: null,
        workspaceId: null,
        decidedAt: null,
      };
      // A pending request holds this user code already (1 in 25.6 billion per pending request): draw again.
      if (attempt < 5) {
        if (!(await this.authorizations.tryAdd(authorization))) continue;
      } else await this.authorizations.add(authorization);
      const shown = formatUserCode(userCode);
      return {
        device_code: deviceCode,
        user_code: shown,
        verification_uri: '/console/device',
        verification_uri_complete: `/console/device?user_code=${shown}`,
        expires_in: DEVICE_CODE_SECONDS,
        interval: POLL_INTERVAL_SECONDS,
      };
    }
  }

  /** A poll with the device grant: an RFC 8628 §3.5 error, or the tokens exactly once. */
  async poll(deviceCode: string, clientId: string, userAgent: string | null): Promise<IssuedTokens> {
    this.checkClient(clientId);
    const deviceCodeHash = sha256(deviceCode);
    const row = await this.authorizations.findByDeviceCodeHash(deviceCodeHash);
    if (!row) throw new OAuthError('invalid_grant', 'Unknown device_code');
    if (row.clientId !== clientId) {
      throw new OAuthError('invalid_client', 'client_id differs from the one of the code request');
    }
    if (row.status === 'redeemed') throw new OAuthError('invalid_grant', 'This device_code was already used');
    const now = this.clock.now();
    if (row.expiresAt.getTime() <= now) {
      throw new OAuthError('expired_token', 'The device code expired; start the sign-in again');
    }
    if (row.status === 'denied') throw new OAuthError('access_denied', 'The person denied this sign-in');
    await this.checkPace(row, now);
    if (row.status === 'pending') {
      throw new OAuthError('authorization_pending', 'Waiting for the person to approve the sign-in');
    }
    return this.redeem(deviceCodeHash, clientId, userAgent);
  }

  /**
   * `slow_down` when this poll comes sooner than the interval after the previous one; from then on the
   * interval is 5 s longer. One UPDATE records the poll and compares with the previous one.
   */
  private async checkPace(row: DeviceAuthorizationEntity, now: number): Promise<void> {
    const interval =
      (await this.authorizations.recordPoll(row.id, new Date(now), SLOW_DOWN_STEP_SECONDS)) ??
      row.pollInterval;
    if (interval > row.pollInterval) {
      throw new OAuthError('slow_down', `Poll at most every ${interval} seconds`, { interval });
    }
  }

  /** The approval becomes tokens with one atomic UPDATE: of two racing polls, only one gets them. */
  private redeem(deviceCodeHash: string, clientId: string, userAgent: string | null): Promise<IssuedTokens> {
    return this.transactions.run(async (tx) => {
      const now = new Date(this.clock.now());
      const approved = await this.authorizations.redeemApproved(tx, deviceCodeHash, clientId, now);
      if (!approved) throw new OAuthError('invalid_grant', 'This device_code was already used');
      return this.tokens.startSession(tx, {
        userId: approved.user_id,
        clientId,
        workspaceId: approved.workspace_id,
        userAgent,
      });
    });
  }

  /**
   * The pending request a person typed the code of, for the approval page. Wrong codes count against the
   * person: past 5 a minute, 429 until the minute is over.
   */
  async findPending(userId: string, input: unknown): Promise<PendingAuthorization> {
    await this.checkAttempts(userId);
    const code = normalizeUserCode(input);
    const row = code ? await this.authorizations.findPendingByUserCodeHash(this.hasher.hash(code)) : null;
    if (!row || row.expiresAt.getTime() <= this.clock.now()) {
      await this.recordWrongCode(userId);
      throw new ConsoleNotFoundError('No pending sign-in has this code; check the code on your device');
    }
    return {
      clientId: row.clientId,
      userCode: formatUserCode(code!),
      supportsOrgScope: row.supportsOrgScope,
      expiresAt: row.expiresAt,
    };
  }

  /**
   * The person's decision, recorded by one atomic UPDATE on the pending request. Approval of a client that
   * asked for a workspace needs one the person belongs to.
   */
  async decide(
    actor: Actor,
    userId: string,
    input: unknown,
    decision: { approve: boolean; workspaceId?: string },
  ): Promise<PendingAuthorization & { workspaceId: string | null }> {
    const pending = await this.findPending(userId, input);
    let workspaceId: string | null = null;
    if (decision.approve && pending.supportsOrgScope) {
      const mine = await this.workspaces.listForUser(userId);
      const chosen = mine.find((workspace) => workspace.id === decision.workspaceId);
      if (!chosen) throw new ConsoleForbiddenError('Pick one of your workspaces for this sign-in');
      workspaceId = chosen.id;
    }
    await this.transactions.run(async (tx) => {
      const now = new Date(this.clock.now());
      const id = await this.authorizations.decide(
        tx,
        this.hasher.hash(normalizeUserCode(pending.userCode)!),
        {
          status: decision.approve ? 'approved' : 'denied',
          userId,
          workspaceId,
          at: now,
        },
      );
      if (!id) throw new ConsoleNotFoundError('This sign-in was already decided or expired');
      await this.audit.record(tx, actor, {
        workspaceId,
        action: decision.approve ? 'device.approved' : 'device.denied',
        target: { type: 'device_authorization', id },
        details: { client_id: pending.clientId },
      });
    });
    return { ...pending, workspaceId };
  }

  private async checkAttempts(userId: string): Promise<void> {
    const row = await this.attempts.ofUser(userId);
    const now = this.clock.now();
    const windowEnds = row ? row.window_start.getTime() + WRONG_CODE_WINDOW_MS : 0;
    if (row && row.failures >= WRONG_CODES_PER_MINUTE && windowEnds > now) {
      throw new TooManyRequestsError(
        'Too many wrong codes; wait a minute and try again',
        Math.ceil((windowEnds - now) / 1000),
      );
    }
  }

  private async recordWrongCode(userId: string): Promise<void> {
    const now = new Date(this.clock.now());
    await this.attempts.recordFailure(userId, now, new Date(now.getTime() - WRONG_CODE_WINDOW_MS));
  }
}
