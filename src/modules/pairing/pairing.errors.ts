import { UnauthorizedError } from '@/common/errors';

/** Expired, used and unknown codes all look the same to the caller. */
export class PairingLinkExpiredError extends UnauthorizedError {
  constructor() {
    super('Pairing link expired or already used');
  }

  override get tag(): string {
    return 'UnauthorizedError';
  }
}
