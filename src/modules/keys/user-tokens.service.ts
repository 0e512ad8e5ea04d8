import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '@/common/clock';
import { ulidId } from '@/common/ids';
import { AuditService } from '../audit/audit.service';
import { Actor } from '../console-access/actor';
import { ConsoleNotFoundError } from '../console-access/console-access.errors';
import { parseExpiry } from './credential-status';
import { SecretHasher } from '../console-access/secret-hasher';
import { generateToken, TOKEN_PREFIXES } from '../console-access/token-format';
import { UserTokenEntity } from './user-token.entity';

/** Tokens (`oc_ut_…`) that act as their person in whichever workspace `x-org-id` names. */
@Injectable()
export class UserTokensService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
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
    await this.db.transaction(async (manager) => {
      await manager.insert(UserTokenEntity, entity);
      await this.audit.record(manager, actor, {
        workspaceId: null,
        action: 'token.created',
        target: { type: 'user_token', id: entity.id },
        details: { name: entity.name, expires_at: expiresAt?.toISOString() ?? null },
      });
    });
    return { entity, token: generated.token };
  }

  list(userId: string): Promise<UserTokenEntity[]> {
    return this.db
      .getRepository(UserTokenEntity)
      .find({ where: { userId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  async revoke(actor: Actor, userId: string, id: string): Promise<void> {
    await this.db.transaction(async (manager) => {
      const token = await manager.findOne(UserTokenEntity, {
        where: { id, userId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!token) throw new ConsoleNotFoundError(`Token not found: ${id}`);
      if (token.revokedAt) return;
      await manager.update(UserTokenEntity, { id }, { revokedAt: new Date(this.clock.now()) });
      await this.audit.record(manager, actor, {
        workspaceId: null,
        action: 'token.revoked',
        target: { type: 'user_token', id },
        details: { name: token.name },
      });
    });
  }
}
