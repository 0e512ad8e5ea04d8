/**
 * The one list of where secrets travel in a request, used by the request log and the error log.
 * Add a name here when a new route puts a secret in its path, query, headers or cookies.
 */

/** Path segments that are secrets: pairing codes, invitation and password reset tokens. */
const SECRET_PATHS = [
  /(\/auth\/connect\/)[^/?#&]+/g,
  /(\/invites\/)[^/?#&]+/g,
  /(\/reset-password\/)[^/?#&]+/g,
  /(\/password-reset\/)(?!complete(?:[/?#]|$))[^/?#&]+/g,
];

/** Query parameters whose values are secrets. */
const SECRET_QUERY_NAMES = new Set([
  'auth_token',
  'access_token',
  'token',
  'code',
  'device_code',
  'user_code',
  'refresh_token',
  'password',
  'key',
  'api_key',
  'client_secret',
]);

/** Header names whose values never reach a log line. */
export const SECRET_HEADERS = [
  'authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'api-key',
  'proxy-authorization',
];

function redactPath(text: string): string {
  let out = text;
  for (const pattern of SECRET_PATHS) out = out.replace(pattern, '$1[redacted]');
  return out;
}

/** A URL as it may be logged: secret path segments, secret query values, and secrets inside query values
 * (`?next=/console/invites/<token>`) replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark < 0) return redactPath(url);
  const query = url
    .slice(mark + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      const name = pair.slice(0, eq);
      let decodedName = name;
      try {
        decodedName = decodeURIComponent(name);
      } catch {}
      if (SECRET_QUERY_NAMES.has(decodedName.toLowerCase())) return `${name}=[redacted]`;
      let value = pair.slice(eq + 1);
      try {
        value = decodeURIComponent(value.replace(/\+/g, ' '));
      } catch {}
      // A URL in a value (`?next=/console/device?user_code=…`) has its own query redacted too.
      const redacted = value.includes('?') ? redactUrl(value) : redactPath(value);
      return redacted === value ? pair : `${name}=${encodeURIComponent(redacted)}`;
    })
    .join('&');
  return `${redactPath(url.slice(0, mark))}?${query}`;
}

/** pino's redaction paths for the same headers, wherever a log line carries a request or response. */
export const REDACTED_LOG_PATHS = [
  ...SECRET_HEADERS.map((name) => `req.headers["${name}"]`),
  ...SECRET_HEADERS.map((name) => `res.headers["${name}"]`),
  'err.parameters',
  'err.driverError.parameters',
  'err.detail',
  'err.driverError.detail',
  'password',
  'token',
];

/** A database error as it may be logged: what failed and why, never the values it was given. */
export function loggableError(error: unknown): unknown {
  if (!error || typeof error !== 'object' || !('query' in error || 'parameters' in error || 'code' in error))
    return error;
  const { name, message, code, query, stack } = error as Record<string, unknown>;
  return { name, message, code, query, stack };
}
