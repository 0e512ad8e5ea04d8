import { instanceClient } from '../shared/api/client';
import { errorMessage } from '../shared/errors';

/** A failed API call, in words for the page (`message`), with the status and body the server sent. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(errorMessage(status, body));
  }
}

let onSignedOut: () => void = () => undefined;

/** What to do when the server says this browser is not signed in (any 401): show the sign-in form. */
export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}

/** The instance API on this origin, typed by the generated client; the browser sends the session cookie. */
export const client = instanceClient();

/** The body of a successful answer; a failure throws an `ApiError` (a 401 also signs the page out). */
export async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: Awaited<typeof call>;
  try {
    result = await call;
  } catch {
    throw new ApiError(0, { message: 'The server cannot be reached. Check the connection and try again.' });
  }
  const { data, error, response } = result;
  if (!response.ok) {
    if (response.status === 401) onSignedOut();
    throw new ApiError(response.status, error);
  }
  return data as T;
}

/**
 * The browser's own sign-in routes (`/auth/sign-in`, `/auth/sign-out`): not in the API documents, which describe
 * what clients call.
 */
export async function postAuth(path: '/auth/sign-in' | '/auth/sign-out', body: object = {}): Promise<void> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, { message: 'The server cannot be reached. Check the connection and try again.' });
  }
  if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => undefined));
}

/** The `{ params: { path: { sessionID } } }` of the session's operations. */
export function of(sessionID: string) {
  return { params: { path: { sessionID } } };
}

/** `location[directory]=…`, the deepObject query of the location-scoped operations. */
export function at(directory: string) {
  return { params: { query: { location: { directory } } } };
}

/**
 * opencode's MCP routes (`GET /mcp`, `POST /mcp/{name}/connect`, …): opencode's v1 API, not in the API documents
 * the typed client is made from, so called as they are. `directory` is the location.
 */
export async function mcpCall<T>(
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  directory: string,
  body?: object,
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/mcp${path}?directory=${encodeURIComponent(directory)}`, {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, { message: 'The server cannot be reached. Check the connection and try again.' });
  }
  const answer = await response.json().catch(() => undefined);
  if (!response.ok) {
    if (response.status === 401) onSignedOut();
    throw new ApiError(response.status, answer);
  }
  return answer as T;
}
