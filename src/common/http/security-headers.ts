import helmet from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';

const OPTIONS: Parameters<typeof helmet>[0] = {
  contentSecurityPolicy: {
    directives: {
      'script-src': ["'self'"],
      'img-src': ["'self'", 'data:'],
      'upgrade-insecure-requests': null,
    },
  },
  hsts: false,
};

/**
 * helmet's headers for our options. They are the same for every response, so helmet runs once at start-up
 * and each response gets the finished list.
 */
export function securityHeaders(): Array<[string, string]> {
  const headers = new Map<string, string>();
  const response = {
    setHeader: (name: string, value: string) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
  };
  helmet(OPTIONS)({} as IncomingMessage, response as unknown as ServerResponse, () => undefined);
  return [...headers];
}
