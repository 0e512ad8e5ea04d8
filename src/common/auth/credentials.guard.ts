import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { UnauthorizedError } from '../errors';
import { requestPath } from '../http/http';
import { AuthRegistry } from './auth-registry';
import { AuthenticatedRequest } from './authenticator';
import { IS_PUBLIC } from './public.decorator';

/** Secure by default: every route needs the credentials of its surface unless it is `@Public()`. */
@Injectable()
export class CredentialsGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly registry: AuthRegistry,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const authenticator = this.registry.find(requestPath(request));
    if (!authenticator) throw new UnauthorizedError();
    request.principal = await authenticator.authenticate(request, context);
    return true;
  }
}
