import { consoleClient, type ConsoleSchemas } from '../shared/api/client';
import { errorMessage } from '../shared/errors';

export type Schemas = ConsoleSchemas;
export type Role = Schemas['WorkspaceWithRoleDto']['role'];

/** The console API, same origin, with the sign-in cookie (JSON bodies and the Origin header make it CSRF-safe). */
export const api = consoleClient();

/** A failed call, with the server's words (never its raw JSON). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The field a 400 is about (`providers.team.settings.baseURL`), so the form can say it next to the field. */
    readonly field?: string,
  ) {
    super(message);
  }
}

interface Result<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The answer of a call, or an `ApiError` whose message can be shown as it is. */
export async function call<T>(request: Promise<Result<T>>): Promise<T> {
  let result: Result<T>;
  try {
    result = await request;
  } catch {
    throw new ApiError(0, 'The server could not be reached. Check the connection and try again.');
  }
  const { response } = result;
  if (!response.ok) {
    if (response.status === 401) {
      throw new ApiError(401, 'You are signed out. Reload the page to sign in again.');
    }
    const field = (result.error as { field?: unknown } | undefined)?.field;
    throw new ApiError(
      response.status,
      errorMessage(response.status, result.error),
      typeof field === 'string' ? field : undefined,
    );
  }
  return result.data as T;
}

export const wordsOf = (error: unknown): string =>
  error instanceof ApiError ? error.message : 'Something went wrong in this page. Reload it and try again.';

/** `x-org-id` for the routes that take the workspace from a header (budgets). */
export const inOrg = (org: string) => ({ header: { 'x-org-id': org } });

export const isAdmin = (role: Role) => role === 'owner' || role === 'admin';

export { day, dollars, microToNumber, when } from './format';
