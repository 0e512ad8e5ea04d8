import { resetLinkState, RESET_LIFETIME_MS } from './password-reset';

describe('resetLinkState', () => {
  const created = new Date('2026-01-01T10:00:00Z');
  const expiresAt = new Date(created.getTime() + RESET_LIFETIME_MS);

  it('is usable until it expires, then expired', () => {
    expect(resetLinkState({ expiresAt, usedAt: null }, created)).toBe('usable');
    expect(resetLinkState({ expiresAt, usedAt: null }, new Date(expiresAt.getTime() - 1))).toBe('usable');
    expect(resetLinkState({ expiresAt, usedAt: null }, expiresAt)).toBe('expired');
  });

  it('is used once used, even before it would expire', () => {
    expect(resetLinkState({ expiresAt, usedAt: created }, created)).toBe('used');
  });

  it('is unknown without a row', () => {
    expect(resetLinkState(null, created)).toBe('unknown');
  });

  it('lives an hour', () => {
    expect(RESET_LIFETIME_MS).toBe(3_600_000);
  });
});
