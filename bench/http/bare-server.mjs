// The floor for bench:http: a bare node:http server that answers every request with the bytes Outpost answered for
// that path (status, headers, body; a fresh x-request-id, as Outpost makes one), with nothing in between. Run as a
// process of its own, as Outpost is. argv[2]: a JSON object of path → { status, headers, body }.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

const answers = JSON.parse(process.argv[2]);
const server = createServer((request, response) => {
  const answer = answers[request.url] ?? { status: 404, headers: {}, body: '' };
  response.writeHead(answer.status, { ...answer.headers, 'x-request-id': randomUUID() });
  response.end(answer.body);
});
server.keepAliveTimeout = 72_000;
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
