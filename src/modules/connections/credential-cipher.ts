import { Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { SecretHasher } from '../console-access/secret-hasher';
import { ConnectionCredentialError } from './connections.errors';

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** HKDF `info`: this key is for connection credentials only, distinct from the hashes' pepper. */
const KEY_INFO = 'outpost/connection-credential/aes-256-gcm/v1';

/**
 * AES-256-GCM for the credentials of BYOK connections. The key is derived (HKDF-SHA-256) from the secret the
 * key hasher uses (`OUTPOST_SECRET_KEY` or the generated file). The ciphertext is bound to its connection
 * (associated data: workspace and connection id), so it cannot be copied onto another row.
 * Stored as: version byte, 12-byte IV, 16-byte tag, ciphertext.
 */
@Injectable()
export class CredentialCipher {
  private key: Buffer | undefined;

  constructor(private readonly secret: SecretHasher) {}

  encrypt(plain: string, binding: { workspaceId: string; id: string }): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keyBytes(), iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(associatedData(binding));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
  }

  /** The plain credential; a `ConnectionCredentialError` if it was tampered with or the secret changed. */
  decrypt(stored: Buffer, binding: { workspaceId: string; id: string }): string {
    if (stored.length < 1 + IV_BYTES + TAG_BYTES || stored[0] !== VERSION) {
      throw new ConnectionCredentialError(binding.id);
    }
    const iv = stored.subarray(1, 1 + IV_BYTES);
    const tag = stored.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
    const body = stored.subarray(1 + IV_BYTES + TAG_BYTES);
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.keyBytes(), iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(associatedData(binding));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch {
      throw new ConnectionCredentialError(binding.id);
    }
  }

  /** Derived on first use: the secret is loaded by the hasher's `onModuleInit`. */
  private keyBytes(): Buffer {
    this.key ??= this.secret.deriveKey(KEY_INFO, 32);
    return this.key;
  }
}

function associatedData(binding: { workspaceId: string; id: string }): Buffer {
  return Buffer.from(`connection:${binding.workspaceId}:${binding.id}`, 'utf8');
}
