import { Injectable } from '@nestjs/common';
import { Clock } from '@/common/clock';
import { ulidId } from '@/common/ids';
import { Transactions } from '@/database/transaction';
import { AuditService } from '../audit/audit.service';
import { Actor } from '../console-access/actor';
import { ConsoleNotFoundError } from '../console-access/console-access.errors';
import { parseExpiry } from './credential-status';
import { SecretHasher } from '../console-access/secret-hasher';
import { generateToken, TOKEN_PREFIXES } from '../console-access/token-format';
import { UserTokenEntity } from './user-token.entity';
import { UserTokensRepository } from './user-tokens.repository';

/** Tokens (`oc_ut_…`) that act as their person in whichever workspace `x-org-id` names. */
@Injectable()
export class UserTokensService {
  constructor(
    private readonly tokens: UserTokensRepository,
    private readonly transactions: Transactions,
    private readonly hasher: SecretHasher,
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {}

  async create(
    actor: Actor,
    userId: string,
    input: { name: string; expires_at?: string },
  ): Promise<{ entity: UserTokenEntity; token: string }> {
    const now = this.clock.now();
    const expiresAt = parseExpiry(input.expires_at, now);
    const generated = generateToken(TOKEN_PREFIXES.userToken);
    const entity: UserTokenEntity = {
      id: ulidId('tok', now),
      publicId: generated.publicId,
      secretHash: this.hasher.hash(generated.secret),
      userId,
      name: input.name,
      last4: generated.last4,
      createdAt: new Date(now),
      expiresAt,
      revokedAt: null,
      lastUsedAt: null,
    };
    await this.transactions.run(async (tx) => {
      await this.tokens.add(tx, entity);
      await this.audit.record(tx, actor, {
        workspaceId: null,
        action: 'token.created',
        target: { type: 'user_token', id: entity.id },
        details: { name: entity.name, expires_at: expiresAt?.toISOString() ?? null },
      });
    });
    return { entity, token: generated.token };
  }

  list(userId: string): Promise<UserTokenEntity[]> {
    return this.tokens.ofUser(userId);
  }

  async revoke(actor: Actor, userId: string, id: string): Promise<void> {
    await this.transactions.run(async (tx) => {
      const token = await this.tokens.lockOfUser(tx, id, userId);
      if (!token) throw new ConsoleNotFoundError(`Token not found: ${id}`);
      if (token.revokedAt) return;
      await this.tokens.markRevoked(tx, id, new Date(this.clock.now()));
      await this.audit.record(tx, actor, {
        workspaceId: null,
        action: 'token.revoked',
        target: { type: 'user_token', id },
        details: { name: token.name },
      });
    });
  }
}
