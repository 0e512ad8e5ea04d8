import { Strategy } from 'passport-http-bearer';
import { PlainRequest } from '@/common/http/http';
import { ResolvedCredential } from './console-principal';

/** Finds the credential a bearer token stands for, or undefined when it is unknown, expired or revoked. */
export type BearerLookup = (token: string, request: PlainRequest) => Promise<ResolvedCredential | undefined>;

type Done = (error: unknown, user?: ResolvedCredential | false) => void;
// passport's typings name Express's request; the strategy reads only headers, query and body, which ours has.
type PassportRequest = Parameters<Strategy<never>['authenticate']>[0];
type Verify = (request: PassportRequest, token: string, done: Done) => void;
export type BearerStrategy = Strategy<Verify>;

/** A passport-http-bearer strategy around a lookup. */
export function bearerStrategy(lookup: BearerLookup): BearerStrategy {
  return new Strategy<Verify>({ passReqToCallback: true }, (request, token, done) => {
    lookup(token, request as unknown as PlainRequest).then(
      (credential) => done(null, credential ?? false),
      (error: unknown) => done(error),
    );
  });
}

interface StrategyRun {
  success(user: ResolvedCredential): void;
  fail(): void;
  pass(): void;
  redirect(): void;
  error(error: unknown): void;
  authenticate(request: PassportRequest, options?: object): void;
}

/** Runs a passport strategy on one request without the passport middleware: the credential, or false. */
export function runStrategy(
  strategy: BearerStrategy,
  request: PlainRequest,
): Promise<ResolvedCredential | false> {
  return new Promise((resolve, reject) => {
    // Passport's own way: a per-request object whose prototype is the strategy, with the outcome actions.
    const run = Object.create(strategy) as StrategyRun;
    run.success = (user) => resolve(user);
    run.fail = () => resolve(false);
    run.pass = () => resolve(false);
    run.redirect = () => resolve(false);
    run.error = (error) => reject(error instanceof Error ? error : new Error(String(error)));
    run.authenticate(request as unknown as PassportRequest, {});
  });
}
