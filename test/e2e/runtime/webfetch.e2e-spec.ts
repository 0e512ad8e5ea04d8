import { createServer, Server } from 'node:http';
import { AddressInfo, Socket } from 'node:net';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { Api, EventLog, scriptedProject, startScripted, stopScripted } from '../../helpers/prompt';
import { TestApp } from '../../helpers/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const PAGE = `<!doctype html><html><head><title>t</title><style>body { color: red }</style></head><body>
<script>window.secret = 'never shown';</script>
<h1>Release notes</h1>
<p>Version <strong>2.0</strong> is out, see <a href="https://example.com/notes">the notes</a>.</p>
<ul><li>faster</li><li>smaller</li></ul>
<pre><code>npm install outpost</code></pre>
</body></html>`;

/** A page on loopback that counts every connection made to it. */
async function loopbackPage(): Promise<{ server: Server; port: number; sockets: () => number }> {
  let sockets = 0;
  const server = createServer((req, res) => {
    if (req.url === '/to-v6-loopback') {
      res.writeHead(302, { location: `http://[::1]:${port}/page` }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
  });
  server.on('connection', (_socket: Socket) => sockets++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { server, port, sockets: () => sockets };
}

/** Runs one prompt whose model calls webfetch once per URL; the tool results the model got back, in order. */
async function fetchThroughModel(
  a: Api,
  log: EventLog,
  server: ScriptedModelServer,
  calls: Array<{ url: string; format?: string }>,
): Promise<string[]> {
  const sessionID = await a.createSession(scriptedProject(server));
  server.script(
    { toolCalls: calls.map((input, i) => ({ id: `call_${i}`, name: 'webfetch', input })) },
    { text: 'Done.' },
  );
  await a.prompt(sessionID, { text: 'fetch these pages' });
  await log.idle(sessionID);
  const results = (server.requests.at(-1)!.body.messages as Json[]).filter((m) => m.role === 'tool');
  return calls.map((_call, i) => String(results.find((m) => m.tool_call_id === `call_${i}`)?.content));
}

describe('webfetch goes through the outbound guard: internal addresses are refused however they are named', () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let log: EventLog;
  let a: Api;
  let page: Awaited<ReturnType<typeof loopbackPage>>;

  beforeAll(async () => {
    ({ t, server, log, a } = await startScripted());
    page = await loopbackPage();
  });
  afterAll(async () => {
    await stopScripted({ t, server });
    page.server.close();
  });

  it('refuses each form before any connection, and tells the model the operator can allow it', async () => {
    const port = page.port;
    const urls = [
      `http://127.0.0.1:${port}/admin`,
      `http://localhost:${port}/admin`,
      `http://[::1]:${port}/admin`,
      `http://[::ffff:127.0.0.1]:${port}/admin`,
      `http://[::127.0.0.1]:${port}/admin`,
      `http://[64:ff9b::127.0.0.1]:${port}/admin`,
      `http://[::ffff:0:127.0.0.1]:${port}/admin`,
      `http://[64:ff9b:1::a00:1]:${port}/admin`,
      'http://[fec0::1]/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:169.254.169.254]/latest/meta-data/',
      'http://10.0.0.1/',
      `${t.url}/api/session`,
    ];
    const results = await fetchThroughModel(
      a,
      log,
      server,
      urls.map((url) => ({ url })),
    );
    results.forEach((result, i) => {
      expect({ url: urls[i], result }).toEqual({
        url: urls[i],
        result: expect.stringMatching(/internal address.*OUTPOST_CONNECTIONS_ALLOW/),
      });
    });
    expect(page.sockets()).toBe(0);
  });

  it('the refused call is an error part of the step', async () => {
    const sessionID = await a.createSession(scriptedProject(server));
    server.script(
      { toolCalls: [{ name: 'webfetch', input: { url: `http://127.0.0.1:${page.port}/` } }] },
      { text: 'Could not fetch it.' },
    );
    await a.prompt(sessionID, { text: 'fetch it' });
    await log.idle(sessionID);
    const step = (await a.messages(sessionID)).find((m) => m.type === 'assistant')!;
    expect(step.content[0].state).toMatchObject({ status: 'error' });
  });
});

describe('webfetch with OUTPOST_CONNECTIONS_ALLOW: what the operator allows is fetched, and HTML becomes Markdown', () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let log: EventLog;
  let a: Api;
  let page: Awaited<ReturnType<typeof loopbackPage>>;

  beforeAll(async () => {
    ({ t, server, log, a } = await startScripted({ env: { OUTPOST_CONNECTIONS_ALLOW: '127.0.0.1,::1' } }));
    page = await loopbackPage();
  });
  afterAll(async () => {
    await stopScripted({ t, server });
    page.server.close();
  });

  it('fetches an allowed loopback page, by address and by a name resolving to it', async () => {
    const [markdown, text, html, byName] = await fetchThroughModel(a, log, server, [
      { url: `http://127.0.0.1:${page.port}/page`, format: 'markdown' },
      { url: `http://127.0.0.1:${page.port}/page` },
      { url: `http://127.0.0.1:${page.port}/page`, format: 'html' },
      { url: `http://localhost:${page.port}/page`, format: 'markdown' },
    ]);
    expect(markdown).toContain('# Release notes');
    expect(markdown).toContain('Version **2.0** is out, see [the notes](https://example.com/notes).');
    expect(markdown).toMatch(/^- {1,3}faster$/m);
    expect(markdown).toContain('```\nnpm install outpost\n```');
    expect(markdown).not.toContain('never shown');
    expect(markdown).not.toContain('color: red');

    expect(text).toContain('Release notes\n\nVersion 2.0 is out, see the notes.');
    expect(text).toMatch(/^faster$/m);
    expect(text).not.toMatch(/[<>*#]|never shown|color: red/);

    expect(html).toBe(PAGE);
    expect(byName).toBe(markdown);
  });
});

describe('webfetch follows a redirect only where the guard lets it', () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let log: EventLog;
  let a: Api;
  let page: Awaited<ReturnType<typeof loopbackPage>>;

  beforeAll(async () => {
    ({ t, server, log, a } = await startScripted({ env: { OUTPOST_CONNECTIONS_ALLOW: '127.0.0.1' } }));
    page = await loopbackPage();
  });
  afterAll(async () => {
    await stopScripted({ t, server });
    page.server.close();
  });

  it('a redirect from an allowed page to an address the operator did not allow is refused', async () => {
    const [result] = await fetchThroughModel(a, log, server, [
      { url: `http://127.0.0.1:${page.port}/to-v6-loopback` },
    ]);
    expect(result).toMatch(/::1 is an internal address.*OUTPOST_CONNECTIONS_ALLOW/);
    expect(page.sockets()).toBe(1);
  });
});
