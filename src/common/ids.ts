import { randomBytes, randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[randomInt(62)];
  return out;
}

/** opencode's identifier: time * 4096 + counter, as 16 hex digits, then 12 random base62 characters. */
let lastMs = 0;
let counter = 0;

function timeCounter(now: number): bigint {
  if (now !== lastMs) {
    lastMs = now;
    counter = 0;
  }
  counter += 1;
  return BigInt(now) * 0x1000n + BigInt(counter);
}

const MASK64 = (1n << 64n) - 1n;

/** Newer ids sort first (sessions). */
export function descendingId(prefix: string, now = Date.now()): string {
  const value = ~timeCounter(now) & MASK64;
  return `${prefix}_${value.toString(16).padStart(16, '0')}${randomBase62(12)}`;
}

/** Newer ids sort last (messages, parts, events). */
export function ascendingId(prefix: string, now = Date.now()): string {
  const value = timeCounter(now) & MASK64;
  return `${prefix}_${value.toString(16).padStart(16, '0')}${randomBase62(12)}`;
}

/** A ULID (Crockford base32: 10 characters of time, 16 of randomness) behind a prefix: `org_`, `usr_`, `key_`. */
export function ulidId(prefix: string, now = Date.now()): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = randomBytes(16);
  let random = '';
  for (let i = 0; i < 16; i++) random += CROCKFORD[bytes[i] % 32];
  return `${prefix}_${time}${random}`;
}

/** Crockford base32 of `value`, `length` characters (the lowest digits). */
function crockford(value: number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out = CROCKFORD[value % 32] + out;
    value = Math.floor(value / 32);
  }
  return out;
}

/**
 * ULID-shaped ids for rows written by the thousand (the gateway's request log): 10 characters of time, 8 random
 * characters drawn once per process, then an 8-character counter, so ids of one process sort in the order they
 * were made and no call pays for randomness (`ulidId`'s randomBytes per id showed in bench:gateway's profile).
 */
export class SequentialUlids {
  private readonly node = crockford(randomInt(2 ** 40), 8);
  private counter = 0;

  constructor(private readonly prefix: string) {}

  next(now = Date.now()): string {
    this.counter = (this.counter + 1) % 32 ** 8;
    return `${this.prefix}_${crockford(now, 10)}${this.node}${crockford(this.counter, 8)}`;
  }
}
