/* The bare relay of bench:gateway, in its own process so its CPU time can be read: what any proxy costs at least
 * (read the request, forward it with undici, pipe the answer back). Usage: node relay.mjs <upstream port>; prints
 * its own port. */
import { createServer } from 'node:http';
import { request } from 'undici';

const upstreamPort = process.argv[2];
const relay = createServer(async (req, res) => {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const up = await request(`http://127.0.0.1:${upstreamPort}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: Buffer.concat(chunks),
  });
  res.writeHead(up.statusCode, { 'content-type': up.headers['content-type'] });
  for await (const c of up.body) res.write(c);
  res.end();
});
relay.listen(0, '127.0.0.1', () => console.log(relay.address().port));
