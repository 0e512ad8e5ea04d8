import createClient from 'openapi-fetch';
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

/** The instance API on this origin, with this browser's session cookie. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- paths are typed by the generated client once merged
export const client = createClient<any>({ baseUrl: location.origin, credentials: 'same-origin' });

type Params = { query?: Record<string, unknown>; path?: Record<string, string> };

/** The body of a successful answer; a failure throws an `ApiError` (a 401 also signs the page out). */
async function settle<T>(call: Promise<{ data?: unknown; error?: unknown; response: Response }>): Promise<T> {
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

export const api = {
  get: <T>(path: string, params: Params = {}) => settle<T>(client.GET(path, { params })),
  post: <T = void>(path: string, body: unknown = {}, params: Params = {}) =>
    settle<T>(client.POST(path, { params, body })),
  patch: <T = void>(path: string, body: unknown, params: Params = {}) =>
    settle<T>(client.PATCH(path, { params, body })),
  delete: <T = void>(path: string, params: Params = {}) => settle<T>(client.DELETE(path, { params })),
};

/** `location[directory]=…`, the deepObject query of the location-scoped operations. */
export function at(directory: string | undefined): Params {
  return directory ? { query: { location: { directory } } } : {};
}
