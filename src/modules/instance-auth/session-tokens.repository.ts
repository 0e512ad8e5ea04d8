import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LessThan, Repository } from 'typeorm';
import { SessionTokenEntity } from './session-token.entity';

/** The `session_token` table: paired clients' tokens by their hash. */
@Injectable()
export class SessionTokensRepository {
  constructor(
    @InjectRepository(SessionTokenEntity) private readonly tokens: Repository<SessionTokenEntity>,
  ) {}

  /** Adds a token, dropping the ones expired by its creation. */
  async add(token: Omit<SessionTokenEntity, 'lastUsedAt'>): Promise<void> {
    await this.tokens.delete({ expiresAt: LessThan(token.createdAt) });
    await this.tokens.insert({ ...token, lastUsedAt: null });
  }

  find(tokenHash: string): Promise<SessionTokenEntity | null> {
    return this.tokens.findOneBy({ tokenHash });
  }

  async touch(tokenHash: string, at: Date): Promise<void> {
    await this.tokens.update({ tokenHash }, { lastUsedAt: at });
  }

  async remove(tokenHash: string): Promise<void> {
    await this.tokens.delete({ tokenHash });
  }
}
