import type { FastifyInstance } from 'fastify';
import { parse as parseForm } from 'node:querystring';

/**
 * JSON (an empty body reads as `{}`, as clients that send `Content-Type: application/json` without a body
 * expect; `__proto__` and `constructor.prototype` keys are refused) and HTML forms.
 */
export function registerBodyParsers(server: FastifyInstance, bodyLimit: number): void {
  const parseJson = server.getDefaultJsonParser('error', 'error');
  server.removeContentTypeParser('application/json');
  server.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (request, body, done) => {
    if (body === '') done(null, {});
    else parseJson(request, body as string, done);
  });
  server.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit },
    (_request, body, done) => done(null, { ...parseForm(body as string) }),
  );
}
