import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { HttpRequest } from '@/common/http/http';

/**
 * The project directory a v1 request names: `?directory=`, else the URL-encoded `x-opencode-directory` header
 * (opencode's clients send one or both); undefined means the server's default location.
 */
export const V1Directory = createParamDecorator(
  (_: unknown, context: ExecutionContext): string | undefined => {
    const request = context.switchToHttp().getRequest<HttpRequest>();
    const query = request.query as Record<string, unknown> | undefined;
    if (typeof query?.directory === 'string' && query.directory) return query.directory;
    const header = request.headers['x-opencode-directory'];
    if (typeof header !== 'string' || !header) return undefined;
    try {
      return decodeURIComponent(header);
    } catch {
      return header;
    }
  },
);
