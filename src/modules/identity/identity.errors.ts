import { TaggedError } from '@/common/errors';

/** A password reset link that was used, expired or replaced: 410, with the sentence saying which. */
export class ResetLinkGoneError extends TaggedError {
  readonly status = 410;

  override get tag(): string {
    return 'Gone';
  }
}

/** Console sign-in with the identity provider refused (a domain not allowed, an unverified email…). */
export class SsoRefusedError extends TaggedError {
  readonly status = 403;
  constructor(
    message: string,
    /** A short code the sign-in page turns back into the sentence (no text from a URL is shown as is). */
    readonly reason: SsoRefusal,
  ) {
    super(message, { reason });
  }

  override get tag(): string {
    return 'Forbidden';
  }
}

export const SSO_REFUSALS = {
  domain:
    'Your email address is not in a domain allowed to sign in here. Ask the administrator of this console.',
  unverified: 'Your identity provider did not confirm your email address, so it cannot sign you in here.',
  signup:
    'There is no console account for your email address and sign-up is not open. Ask for an invitation.',
  failed: 'Signing in with your identity provider did not complete. Try again.',
} as const;
export type SsoRefusal = keyof typeof SSO_REFUSALS;
