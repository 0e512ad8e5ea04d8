import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { appConfig, AppConfig } from '@/config/app.config';
import { consoleAccessConfig, ConsoleAccessConfig } from './console-access.config';
import { SecretFingerprint, SecretSource } from './secret-fingerprint';

/** HKDF `info` of the fingerprint the database keeps of the secret (never the secret, nor any key made from it). */
const FINGERPRINT_INFO = 'outpost/secret-key/fingerprint/v1';

/**
 * Keyed hashes (HMAC-SHA-256) of key and token secrets. The pepper is `OUTPOST_SECRET_KEY`, or one
 * generated on first start and kept in the data directory (mode 0600), so a copy of the database alone
 * cannot test guesses offline. At start it confirms that the database was set up with the same secret
 * (SecretFingerprint): a node of a fleet with another one refuses to start.
 */
@Injectable()
export class SecretHasher implements OnModuleInit {
  private readonly logger = new Logger('Keys');
  private pepper = Buffer.alloc(0);

  constructor(
    @Inject(consoleAccessConfig.KEY) private readonly config: ConsoleAccessConfig,
    @Inject(appConfig.KEY) private readonly app: AppConfig,
    private readonly fingerprint: SecretFingerprint,
  ) {}

  async onModuleInit(): Promise<void> {
    const source = this.load();
    await this.fingerprint.confirm(this.deriveKey(FINGERPRINT_INFO), source);
  }

  /** Reads (or generates) the pepper; says where it came from. */
  private load(): SecretSource {
    if (this.config.secretKey) {
      this.pepper = Buffer.from(this.config.secretKey, 'utf8');
      return { kind: 'env' };
    }
    const file = join(this.app.dataDir, 'secret-key');
    if (existsSync(file)) {
      this.pepper = Buffer.from(readFileSync(file, 'utf8').trim(), 'utf8');
      return { kind: 'file', file };
    }
    mkdirSync(this.app.dataDir, { recursive: true });
    const value = randomBytes(32).toString('hex');
    writeFileSync(file, value + '\n', { mode: 0o600 });
    chmodSync(file, 0o600);
    this.pepper = Buffer.from(value, 'utf8');
    this.logger.log(
      `generated the key-hashing secret in ${file} (set OUTPOST_SECRET_KEY to share it between servers)`,
    );
    return { kind: 'file', file };
  }

  /**
   * A key for another purpose (e.g. encrypting stored credentials), derived from the same secret with
   * HKDF-SHA-256 and that purpose's own `info`: the pepper itself never leaves this class.
   */
  deriveKey(info: string, length = 32): Buffer {
    if (this.pepper.length === 0) throw new Error('the secret key is not loaded yet');
    return Buffer.from(hkdfSync('sha256', this.pepper, Buffer.alloc(0), info, length));
  }

  hash(secret: string): string {
    return createHmac('sha256', this.pepper).update(secret).digest('hex');
  }

  /** Constant-time comparison of a presented secret with a stored hash. */
  matches(secret: string, storedHash: string): boolean {
    const presented = Buffer.from(this.hash(secret), 'hex');
    const stored = Buffer.from(storedHash, 'hex');
    return presented.length === stored.length && timingSafeEqual(presented, stored);
  }
}
