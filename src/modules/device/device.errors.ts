import { TaggedError } from '@/common/errors';

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unsupported_grant_type'
  | 'authorization_pending'
  | 'slow_down'
  | 'access_denied'
  | 'expired_token';

/**
 * The token endpoints' errors (RFC 6749 §5.2, RFC 8628 §3.5): status 400 and the OAuth body
 * `{ error, error_description }` instead of the console's `_tag` body, which OAuth clients do not read.
 */
export class OAuthError extends TaggedError {
  readonly status = 400;

  constructor(
    readonly code: OAuthErrorCode,
    description: string,
    fields: Record<string, unknown> = {},
  ) {
    super(description, fields);
    this.headers = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };
  }

  override get tag(): string {
    return this.code;
  }

  override toBody(): Record<string, unknown> {
    return { error: this.code, error_description: this.message, ...this.fields };
  }
}
