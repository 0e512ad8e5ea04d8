import { Inject, Injectable, Logger } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import { consoleAccessConfig, ConsoleAccessConfig } from './console-access.config';
import { SecretKeyMismatchError } from './console-access.errors';
import { SecretFingerprintRepository } from './secret-fingerprint.repository';

/** Where this node's secret came from, for the refusal's words. */
export type SecretSource = { kind: 'env' } | { kind: 'file'; file: string };

const ROTATE = 'OUTPOST_SECRET_KEY_ROTATE';

function mismatch(source: SecretSource): string {
  const which =
    source.kind === 'env'
      ? 'OUTPOST_SECRET_KEY differs from'
      : `OUTPOST_SECRET_KEY is unset and this node's secret (${source.file}) differs from`;
  return (
    `${which} the secret this database was set up with (the fingerprint stored in it does not match); ` +
    'give every node the same OUTPOST_SECRET_KEY, or, to change the secret on purpose (every API key, user token ' +
    `and stored connection credential stops working), start one node once with ${ROTATE}=1`
  );
}

/**
 * Every node of a fleet must hash and encrypt with the same secret: the database keeps a fingerprint of the first
 * node's, and a node with another one refuses to start instead of answering 401 to every key made elsewhere.
 * `OUTPOST_SECRET_KEY_ROTATE=1` replaces the fingerprint (a deliberate change of the secret).
 */
@Injectable()
export class SecretFingerprint {
  private readonly logger = new Logger('Keys');

  constructor(
    private readonly fingerprints: SecretFingerprintRepository,
    @Inject(consoleAccessConfig.KEY) private readonly config: ConsoleAccessConfig,
  ) {}

  /** Stores `fingerprint` when the database has none; throws `SecretKeyMismatchError` when it has another. */
  async confirm(fingerprint: Buffer, source: SecretSource): Promise<void> {
    const stored = Buffer.from(await this.fingerprints.storeOrRead(fingerprint.toString('hex')), 'hex');
    const same = stored.length === fingerprint.length && timingSafeEqual(stored, fingerprint);
    if (same) {
      if (this.config.rotateSecretKey)
        this.logger.warn(`${ROTATE} is set but the secret is the one the database has: remove ${ROTATE}`);
      return;
    }
    if (!this.config.rotateSecretKey) throw new SecretKeyMismatchError(mismatch(source));
    await this.fingerprints.replace(fingerprint.toString('hex'));
    this.logger.warn(
      `${ROTATE}: the secret key changed and its fingerprint replaced the database's: API keys, user tokens and ` +
        'connection credentials made with the old secret no longer work, and nodes still on the old secret refuse ' +
        `to start. Give every node the new secret, and remove ${ROTATE}`,
    );
  }
}
