/**
 * URLs can carry secrets (pairing codes, invitation tokens, `auth_token`); logs get this form instead.
 * Add a pattern here when a new route puts a secret in its path or query.
 */
const SECRET_PATHS = [/(\/auth\/connect\/)[^/?#]+/, /(\/invites\/)[^/?#]+/];
const SECRET_QUERY = /([?&](?:auth_token|token|code|device_code|user_code|refresh_token)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  let out = url;
  for (const pattern of SECRET_PATHS) out = out.replace(pattern, '$1[redacted]');
  return out.replace(SECRET_QUERY, '$1[redacted]');
}

/** Header names whose values never reach a log line. */
export const REDACTED_LOG_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers["api-key"]',
  'res.headers["set-cookie"]',
];
