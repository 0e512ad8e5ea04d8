import { Injectable, OnModuleInit } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import { AuthenticatedRequest, Authenticator, AuthRegistry, Principal } from '../../common/auth';
import { UnauthorizedError } from '../../common/errors';
import { ServerPasswordService } from './server-password.service';

export const INSTANCE_PREFIXES = ['/api/', '/auth/connect/'];

/** Constant-time comparison of two strings of any length (compares their SHA-256 digests). */
export function safeEqual(a: string, b: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** `user:password` from `Authorization: Basic …` or `?auth_token=` (for EventSource). */
export function presentedCredentials(
  request: AuthenticatedRequest,
): { user: string; pass: string } | undefined {
  const header = request.headers.authorization;
  let encoded: string | undefined;
  if (header?.toLowerCase().startsWith('basic ')) encoded = header.slice(6).trim();
  else if (typeof request.query.auth_token === 'string') encoded = request.query.auth_token;
  if (!encoded) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return { user: decoded.slice(0, colon), pass: decoded.slice(colon + 1) };
}

function unauthorized(): UnauthorizedError {
  const error = new UnauthorizedError();
  error.headers['WWW-Authenticate'] = 'Basic realm="Outpost"';
  return error;
}

@Injectable()
export class InstanceAuthenticator implements Authenticator, OnModuleInit {
  constructor(
    private readonly password: ServerPasswordService,
    private readonly registry: AuthRegistry,
  ) {}

  onModuleInit(): void {
    this.registry.register(INSTANCE_PREFIXES, this);
  }

  async authenticate(request: AuthenticatedRequest): Promise<Principal> {
    const credentials = presentedCredentials(request);
    if (!credentials) throw unauthorized();
    const userOk = safeEqual(credentials.user, this.password.username);
    const passOk = safeEqual(credentials.pass, this.password.password);
    if (userOk && passOk) return { kind: 'instance-password' };
    throw unauthorized();
  }
}
