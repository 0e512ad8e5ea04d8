import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Clock } from '@/common/clock';
import { FailedAttemptsLimiter } from '../instance-auth/failed-attempts.limiter';
import { sha256 } from '@/common/hash';
import { SessionTokensService } from '../instance-auth/session-tokens.service';
import { PairingCodeDto } from './dto/pairing-code.dto';
import { PairingCodesRepository } from './pairing-codes.repository';
import { pairingConfig, PairingConfig } from './pairing.config';
import { PairingLinkExpiredError } from './pairing.errors';

/** Short-lived, single-use pairing codes, kept hashed in the database so any server process redeems them. */
@Injectable()
export class PairingService {
  constructor(
    private readonly codes: PairingCodesRepository,
    @Inject(pairingConfig.KEY) private readonly config: PairingConfig,
    private readonly tokens: SessionTokensService,
    private readonly limiter: FailedAttemptsLimiter,
    private readonly clock: Clock,
  ) {}

  get sessionTtlSeconds(): number {
    return this.tokens.ttlSeconds;
  }

  /** A new code (192 random bits) and its link under `baseUrl`. */
  async create(baseUrl: string): Promise<PairingCodeDto> {
    const code = randomBytes(24).toString('base64url');
    const now = this.clock.now();
    await this.codes.add(sha256(code), new Date(now), new Date(now + this.config.codeTtlSeconds * 1000));
    return { code, expires_in: this.config.codeTtlSeconds, url: `${baseUrl}/auth/connect/${code}` };
  }

  /** Consumes the code in one statement (exactly one of many simultaneous redeems wins) and issues a token. */
  async redeem(code: string, address: string): Promise<string> {
    await this.limiter.check(address);
    const now = new Date(this.clock.now());
    if (!(await this.codes.consume(sha256(code), now))) {
      await this.limiter.fail(address);
      throw new PairingLinkExpiredError();
    }
    return this.tokens.issue();
  }
}
