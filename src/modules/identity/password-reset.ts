/** How long a password reset link works: long enough to open an email, short enough to be dead in an old inbox. */
export const RESET_LIFETIME_MS = 60 * 60_000;

export type ResetLinkState = 'usable' | 'used' | 'expired' | 'unknown';

/** What a reset link is at `now`, from its row (none: a token nobody issued, or one replaced by a newer link). */
export function resetLinkState(
  reset: { expiresAt: Date; usedAt: Date | null } | null | undefined,
  now: Date,
): ResetLinkState {
  if (!reset) return 'unknown';
  if (reset.usedAt) return 'used';
  return reset.expiresAt > now ? 'usable' : 'expired';
}

/** The sentence a refused link gets. */
export const RESET_LINK_REFUSALS: Record<Exclude<ResetLinkState, 'usable'>, string> = {
  used: 'This password reset link was already used. Ask for a new one.',
  expired: 'This password reset link has expired. Ask for a new one.',
  unknown: 'This password reset link is not valid (a newer link replaces older ones). Ask for a new one.',
};
