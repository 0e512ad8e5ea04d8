import type { ExecutionContext } from '@nestjs/common';
import { HttpRequest } from '../http/http';

/** Who made a request, as found by the authenticator of its surface. */
export interface Principal {
  kind: string;
  [key: string]: unknown;
}

export type AuthenticatedRequest = HttpRequest & { principal?: Principal };

/**
 * Checks the credentials of one surface. It returns the principal, or throws the surface's own
 * tagged error (instance: `UnauthorizedError`; console: `Unauthorized`, `OrgRequired`, …).
 */
export interface Authenticator {
  /** `context` gives the route (handler and class), for surfaces whose rules depend on route metadata. */
  authenticate(request: AuthenticatedRequest, context?: ExecutionContext): Promise<Principal>;
}
