import { HttpRequest, requestOrigin } from '@/common/http/http';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a cookie-authenticated request may change state: safe methods always may; others must come from
 * the console's own origin (the `Origin` header, else `Sec-Fetch-Site`) and, when they can carry a form,
 * declare a JSON body — so a form or script on another site cannot drive them with the visitor's cookie.
 */
export function isSameOriginChange(request: HttpRequest, configuredOrigin: string | undefined): boolean {
  if (SAFE_METHODS.has(request.method)) return true;
  const ownOrigins = [requestOrigin(request)];
  if (configuredOrigin) ownOrigins.push(configuredOrigin);
  const origin = request.headers.origin;
  if (origin !== undefined) {
    if (!ownOrigins.includes(origin)) return false;
  } else {
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  }
  if (request.method === 'POST' || request.method === 'PUT' || request.method === 'PATCH') {
    const type = request.headers['content-type'] ?? '';
    if (!/^application\/json\s*(;|$)/i.test(type)) return false;
  }
  return true;
}
