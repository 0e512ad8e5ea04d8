import { randomInt } from 'node:crypto';

/** RFC 8628 §6.1: 20 consonants, no vowels (no words), no look-alikes; 8 of them ≈ 34.5 bits. */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
export const USER_CODE_LENGTH = 8;

export function generateUserCode(): string {
  let code = '';
  for (let i = 0; i < USER_CODE_LENGTH; i++) code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return code;
}

/** `BCDFGHJK` → `BCDF-GHJK`, the form people read and type. */
export function formatUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** What a person typed, ignoring case, hyphens and spaces; undefined when it cannot be a user code. */
export function normalizeUserCode(input: unknown): string | undefined {
  if (typeof input !== 'string' || input.length > 40) return undefined;
  const code = input.replace(/[\s-]/g, '').toUpperCase();
  if (code.length !== USER_CODE_LENGTH) return undefined;
  return [...code].every((char) => USER_CODE_ALPHABET.includes(char)) ? code : undefined;
}
