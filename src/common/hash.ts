import { createHash } from 'node:crypto';

/** Sessions, invitation and pairing tokens and other high-entropy random values are stored as their SHA-256 (hex). */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
