import { crc32 } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { randomBase62 } from '@/common/ids';

/**
 * Console secrets look like `oc_sk_<12 hex public id>_<32 base62 secret><6 base62 CRC32>`:
 * a prefix that names the kind, a public id to look the key up by, the secret, and a checksum of
 * everything before it, so a scanner can tell a real key from noise offline (GitHub's scheme).
 */
export const TOKEN_PREFIXES = {
  serviceKey: 'oc_sk_',
  userToken: 'oc_ut_',
  deviceAccess: 'oc_at_',
} as const;

const SECRET_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** What scanners should match (documented in the README). */
export const KEY_PATTERN = /^oc_(sk|ut|at)_([0-9a-f]{12})_([0-9A-Za-z]{32,})([0-9A-Za-z]{6})$/;

export function checksum(body: string): string {
  let value = crc32(body);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = BASE62[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

export interface GeneratedToken {
  /** The whole value, shown once. */
  token: string;
  publicId: string;
  secret: string;
  /** The last four characters, for lists. */
  last4: string;
  /** `oc_sk_<public id>`, for lists. */
  prefix: string;
}

export function generateToken(prefix: string): GeneratedToken {
  const publicId = randomBytes(6).toString('hex');
  const secret = randomBase62(SECRET_LENGTH);
  const body = `${prefix}${publicId}_${secret}`;
  const token = body + checksum(body);
  return { token, publicId, secret, last4: token.slice(-4), prefix: `${prefix}${publicId}` };
}

export interface ParsedToken {
  prefix: string;
  publicId: string;
  secret: string;
}

/** The parts of a well-formed token whose checksum matches, else undefined (no database needed). */
export function parseToken(token: string): ParsedToken | undefined {
  const match = KEY_PATTERN.exec(token);
  if (!match) return undefined;
  const [, kind, publicId, secret, sum] = match;
  const body = token.slice(0, token.length - CHECKSUM_LENGTH);
  if (checksum(body) !== sum) return undefined;
  return { prefix: `oc_${kind}_`, publicId, secret };
}
