import { sha256 } from '@/common/hash';
import { Inject, Injectable } from '@nestjs/common';
import { createHmac, randomBytes } from 'node:crypto';
import { Clock } from '@/common/clock';
import { instanceAuthConfig, InstanceAuthConfig } from './instance-auth.config';
import { ServerPasswordService } from './server-password.service';
import { SessionTokensRepository } from './session-tokens.repository';

export const SESSION_TOKEN_PREFIX = 'ost_';
/** `last_used_at` is written at most this often per token, so reads do not become writes. */
const LAST_USE_RESOLUTION_MS = 60_000;

/** Session tokens for paired clients: random, stored hashed, valid 30 days, revoked by a new password. */
@Injectable()
export class SessionTokensService {
  constructor(
    private readonly tokens: SessionTokensRepository,
    @Inject(instanceAuthConfig.KEY) private readonly config: InstanceAuthConfig,
    private readonly password: ServerPasswordService,
    private readonly clock: Clock,
  ) {}

  get ttlSeconds(): number {
    return this.config.sessionTtlSeconds;
  }

  /** Issues a new token; the plain value exists only in this return value. */
  async issue(): Promise<string> {
    const token = SESSION_TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const now = this.clock.now();
    await this.tokens.add({
      tokenHash: sha256(token),
      passwordFingerprint: this.fingerprint(),
      createdAt: new Date(now),
      expiresAt: new Date(now + this.config.sessionTtlSeconds * 1000),
    });
    return token;
  }

  /** True when the token was issued under the current password and has not expired. */
  async verify(token: string): Promise<boolean> {
    if (!token.startsWith(SESSION_TOKEN_PREFIX)) return false;
    const now = this.clock.now();
    const row = await this.tokens.find(sha256(token));
    if (!row || row.passwordFingerprint !== this.fingerprint() || row.expiresAt.getTime() <= now) {
      return false;
    }
    if (!row.lastUsedAt || now - row.lastUsedAt.getTime() >= LAST_USE_RESOLUTION_MS) {
      await this.tokens.touch(row.tokenHash, new Date(now));
    }
    return true;
  }

  /** Revokes a token (a browser signing out); unknown tokens are ignored. */
  async revoke(token: string): Promise<void> {
    await this.tokens.remove(sha256(token));
  }

  private fingerprint(): string {
    return createHmac('sha256', this.password.password).update('outpost session tokens').digest('hex');
  }
}
