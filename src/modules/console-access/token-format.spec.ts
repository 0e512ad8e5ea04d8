import { crc32 } from 'node:zlib';
import { checksum, generateToken, KEY_PATTERN, parseToken, TOKEN_PREFIXES } from './token-format';

describe('token format', () => {
  it('generates oc_sk_<12 hex>_<32 base62><6 base62 CRC32> that parses back', () => {
    const generated = generateToken(TOKEN_PREFIXES.serviceKey);
    expect(generated.token).toMatch(/^oc_sk_[0-9a-f]{12}_[0-9A-Za-z]{38}$/);
    expect(KEY_PATTERN.test(generated.token)).toBe(true);
    expect(parseToken(generated.token)).toEqual({
      prefix: 'oc_sk_',
      publicId: generated.publicId,
      secret: generated.secret,
    });
    expect(generated.prefix).toBe(`oc_sk_${generated.publicId}`);
    expect(generated.last4).toBe(generated.token.slice(-4));
  });

  it('the checksum is the CRC32 of everything before it in 6 base62 digits', () => {
    const body = 'oc_sk_000000000000_' + 'a'.repeat(32);
    const sum = checksum(body);
    expect(sum).toMatch(/^[0-9A-Za-z]{6}$/);
    let value = 0;
    for (const char of sum)
      value = value * 62 + '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'.indexOf(char);
    expect(value).toBe(crc32(body));
  });

  it('rejects a changed character, a wrong prefix and noise without touching a database', () => {
    const { token } = generateToken(TOKEN_PREFIXES.userToken);
    const flipped = token.slice(0, 25) + (token[25] === 'a' ? 'b' : 'a') + token.slice(26);
    expect(parseToken(flipped)).toBeUndefined();
    expect(parseToken(token.replace('oc_ut_', 'oc_xx_'))).toBeUndefined();
    expect(parseToken('oc_sk_hello')).toBeUndefined();
    expect(parseToken('')).toBeUndefined();
  });
});
