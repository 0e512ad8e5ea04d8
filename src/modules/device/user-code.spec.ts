import { parseDeviceEnv } from './device.config';
import { formatUserCode, generateUserCode, normalizeUserCode, USER_CODE_ALPHABET } from './user-code';

describe('user codes', () => {
  it('are 8 letters of the RFC 8628 consonant alphabet, shown as XXXX-XXXX', () => {
    for (let i = 0; i < 200; i++) {
      const code = generateUserCode();
      expect(code).toMatch(new RegExp(`^[${USER_CODE_ALPHABET}]{8}$`));
      expect(formatUserCode(code)).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    }
  });

  it('match ignoring case, hyphens and spaces; anything else is not a code', () => {
    expect(normalizeUserCode('bcdf-ghjk')).toBe('BCDFGHJK');
    expect(normalizeUserCode(' BCDF GHJK ')).toBe('BCDFGHJK');
    expect(normalizeUserCode('BCDFGHJ')).toBeUndefined();
    expect(normalizeUserCode('ABCD-EFGH')).toBeUndefined();
    expect(normalizeUserCode(['BCDF-GHJK'])).toBeUndefined();
    expect(normalizeUserCode('B'.repeat(100))).toBeUndefined();
  });
});

describe('OUTPOST_DEVICE_CLIENTS', () => {
  it('defaults to opencode-cli and outpost-cli, takes a list, refuses odd ids', () => {
    expect(parseDeviceEnv({}).clients).toEqual(['opencode-cli', 'outpost-cli']);
    expect(parseDeviceEnv({ OUTPOST_DEVICE_CLIENTS: 'a-cli, b.cli,a-cli' }).clients).toEqual([
      'a-cli',
      'b.cli',
    ]);
    expect(() => parseDeviceEnv({ OUTPOST_DEVICE_CLIENTS: 'bad client' })).toThrow('OUTPOST_DEVICE_CLIENTS');
    expect(() => parseDeviceEnv({ OUTPOST_DEVICE_REFRESH_DAYS: '0' })).toThrow('OUTPOST_DEVICE_REFRESH_DAYS');
  });
});
