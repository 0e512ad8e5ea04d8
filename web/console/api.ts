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

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/**
 * Micro-cents (decimal string) as dollars: `$1,250.00`. Spend below a cent says so, instead of a `$0.00` that
 * contradicts the bar beside it.
 */
export function dollars(microCents: string | null | undefined): string {
  if (microCents === null || microCents === undefined) return 'no limit';
  const value = Number(BigInt(microCents)) / 100_000_000;
  if (value > 0 && value < 0.01) return 'less than $0.01';
  return usd.format(value);
}

export const microToNumber = (microCents: string) => Number(BigInt(microCents)) / 100_000_000;

/** An ISO time as `YYYY-MM-DD HH:MM UTC`, the same for every reader. */
export function when(iso: string | null | undefined, never = 'never'): string {
  if (!iso) return never;
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

export const day = (iso: string | null | undefined, never = 'never') => (iso ? iso.slice(0, 10) : never);
