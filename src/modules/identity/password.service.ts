import { Injectable } from '@nestjs/common';
import { hash, verify } from '@node-rs/argon2';

export const MIN_PASSWORD_LENGTH = 10;

/** argon2id hashes (the library's default algorithm and parameters). */
@Injectable()
export class PasswordService {
  /** Verified when the email is unknown, so a wrong email takes as long as a wrong password. */
  private dummy: Promise<string> | undefined;

  hash(password: string): Promise<string> {
    return hash(password);
  }

  async verify(storedHash: string | undefined, password: string): Promise<boolean> {
    if (storedHash === undefined) {
      this.dummy ??= hash('not-a-real-password-0123456789');
      await verify(await this.dummy, password).catch(() => false);
      return false;
    }
    return verify(storedHash, password).catch(() => false);
  }
}
