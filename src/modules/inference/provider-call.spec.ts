import { once } from 'node:events';
import { createServer, request as httpRequest, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { eventually } from '../../../test/helpers/eventually';
import { ProviderCall, splitBaseUrl } from './provider-call';

/** A provider on loopback answering every request with `answer`. */
async function provider(answer: (res: ServerResponse) => void): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => req.resume().on('end', () => answer(res)));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('ProviderCall', () => {
  const agent = new Agent();
  const servers: Server[] = [];
  afterAll(async () => {
    await agent.destroy();
    for (const server of servers) {
      server.closeAllConnections();
      server.close();
    }
  });
  const start = (origin: string) => {
    const call = new ProviderCall();
    agent.dispatch({ origin, path: '/v1/chat/completions', method: 'POST', body: '{}' }, call);
    return call;
  };

  it('splits a base URL into its origin and path', () => {
    expect(splitBaseUrl('https://api.example.com/v1')).toEqual({
      origin: 'https://api.example.com',
      path: '/v1',
    });
    expect(splitBaseUrl('http://127.0.0.1:9/')).toEqual({ origin: 'http://127.0.0.1:9', path: '/' });
    expect(splitBaseUrl('http://host')).toEqual({ origin: 'http://host', path: '' });
  });

  it('skips 103 Early Hints, keeps only content type and cache control, and reads a body that came before it was asked for', async () => {
    let sent!: () => void;
    const bodySent = new Promise<void>((resolve) => (sent = resolve));
    const { server, origin } = await provider((res) => {
      res.writeEarlyHints({ link: '</a.css>; rel=preload' });
      res.on('finish', sent);
      // The answer itself comes a little after the hints.
      setTimeout(() => {
        res.writeHead(200, {
          'content-type': 'application/json',
          'cache-control': 'no-store',
          'set-cookie': 'a=b',
          'x-ratelimit-remaining': '9',
        });
        res.end('{"ok":true}');
      }, 100);
    });
    servers.push(server);
    const call = start(origin);
    await call.answered;
    expect(call.statusCode).toBe(200);
    await bodySent; // the body is on its way before anyone reads it
    expect(call.headers).toEqual({ 'content-type': 'application/json', 'cache-control': 'no-store' });
    expect(await call.text()).toBe('{"ok":true}');
  });

  it('abort before the answer rejects the call and closes the provider connection', async () => {
    let arrived!: () => void;
    const asked = new Promise<void>((resolve) => (arrived = resolve));
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    const { server, origin } = await provider((res) => {
      res.on('close', closed);
      arrived();
    });
    servers.push(server);
    const call = start(origin);
    await asked;
    call.abort();
    await expect(call.answered).rejects.toThrow('The client left');
    await connectionClosed; // the test's time-out fails a connection left open
  });

  it('a piped answer stops being read while the client does not read: the provider cannot send it all', async () => {
    const total = 64 * 1024 * 1024;
    let sent = 0;
    const { server: upstream, origin } = await provider((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const more = () => {
        while (sent < total) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    });
    // The gateway's side: the answer piped to a client that never reads.
    let seen = 0;
    const gateway = createServer(async (_req, res) => {
      const call = start(origin);
      await call.answered;
      res.writeHead(200);
      void call.pipe(res, (chunk) => (seen += chunk.length)).catch(() => undefined);
    });
    gateway.listen(0, '127.0.0.1');
    await once(gateway, 'listening');
    servers.push(upstream, gateway);
    const client = httpRequest({
      port: (gateway.address() as AddressInfo).port,
      method: 'POST',
      host: '127.0.0.1',
    });
    client.end();
    const [response] = (await once(client, 'response')) as [NodeJS.ReadableStream];
    response.pause();
    expect(
      await eventually(
        () => seen,
        (bytes) => bytes > 0,
      ),
    ).toBeGreaterThan(0);
    // A second to watch, not a wait for an outcome: without backpressure the gateway would read all 64 MB into its
    // memory within it; with it, the provider stops at what the sockets' buffers hold, however long one waits.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(sent).toBeLessThan(total / 2);
    client.destroy();
  });
});
