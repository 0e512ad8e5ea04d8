/* The same bare relay as relay.mjs, as a route of a plain Fastify server (the HTTP framework Outpost runs on, with
 * its defaults): what the framework itself costs over node:http. Usage: node fastify-relay.mjs <upstream port>;
 * prints its own port. */
import Fastify from 'fastify';
import { request } from 'undici';

const upstreamPort = process.argv[2];
const app = Fastify();
app.post('/v1/chat/completions', async (req, reply) => {
  const up = await request(`http://127.0.0.1:${upstreamPort}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(req.body),
  });
  const text = await up.body.text();
  return reply.status(up.statusCode).header('content-type', up.headers['content-type']).send(text);
});
await app.listen({ port: 0, host: '127.0.0.1' });
console.log(app.server.address().port);
