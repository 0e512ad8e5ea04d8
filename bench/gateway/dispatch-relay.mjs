/* The bare relay of relay.mjs made as cheap as undici allows (its own Agent, a dispatch handler, the answer
 * written whole): the floor of what forwarding costs, as Outpost's gateway forwards. Usage:
 * node dispatch-relay.mjs <upstream port>; prints its own port. */
import { createServer } from 'node:http';
import { Agent } from 'undici';

const origin = `http://127.0.0.1:${process.argv[2]}`;
const agent = new Agent();

/** The upstream's status, content type and whole body. */
function forward(body) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let status = 0;
    let type = 'application/json';
    agent.dispatch(
      { origin, path: '/v1/chat/completions', method: 'POST', headers: { 'content-type': 'application/json' }, body },
      {
        onConnect() {},
        onError: reject,
        onHeaders(statusCode, headers) {
          status = statusCode;
          for (let i = 0; i < headers.length; i += 2) {
            if (headers[i].toString().toLowerCase() === 'content-type') type = headers[i + 1].toString();
          }
          return true;
        },
        onData(chunk) {
          chunks.push(chunk);
          return true;
        },
        onComplete() {
          resolve({ status, type, body: Buffer.concat(chunks) });
        },
      },
    );
  });
}

const relay = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    const up = await forward(Buffer.concat(chunks));
    res.writeHead(up.status, { 'content-type': up.type, 'content-length': up.body.length }).end(up.body);
  });
});
relay.listen(0, '127.0.0.1', () => console.log(relay.address().port));
