import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { isBlockedAddress, webFetchTool } from '@/modules/runtime/tools/webfetch.tool';
import { ToolError } from '@/modules/runtime/tools/tool.errors';
import { projectDir } from '../../helpers/project-dir';
import { ScriptedModelServer } from '../../helpers/scripted-model-server';
import { api, EventLog, scriptedProject, startScripted, stopScripted } from '../../helpers/prompt';
import { TestApp } from '../../helpers/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('webfetch refuses loopback and private addresses, however they are named', () => {
  let page: Server;
  let port: number;
  let hits = 0;

  beforeAll(async () => {
    page = createServer((_req, res) => {
      hits++;
      res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>secret admin page</h1>');
    });
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    port = (page.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => page.close(() => resolve())));

  const run = (url: string) =>
    webFetchTool.run({ url }, { directory: projectDir(), signal: new AbortController().signal });

  it.each([
    ['a loopback IP', () => `http://127.0.0.1:${port}/admin`],
    ['localhost by name', () => `http://localhost:${port}/admin`],
    ['IPv6 loopback', () => `http://[::1]:${port}/admin`],
    ['an IPv4-mapped loopback', () => `http://[::ffff:127.0.0.1]:${port}/admin`],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
    ['a private network', () => 'http://10.0.0.1/'],
  ])('refuses %s without connecting', async (_what, url) => {
    await expect(run(url())).rejects.toThrow(ToolError);
    await expect(run(url())).rejects.toThrow(/loopback and private addresses are not fetched/);
    expect(hits).toBe(0);
  });

  it('refuses other schemes, and classifies addresses', async () => {
    await expect(run('file:///etc/passwd')).rejects.toThrow(/only http and https/);
    for (const blocked of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '100.64.0.1',
      '::1',
      'fd00::1',
      'fe80::1',
      '0.0.0.0',
    ]) {
      expect(isBlockedAddress(blocked)).toBe(true);
    }
    for (const open of ['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111']) {
      expect(isBlockedAddress(open)).toBe(false);
    }
  });
});

describe('webfetch in the agent loop: the model gets the refusal as the tool error', () => {
  let t: TestApp;
  let server: ScriptedModelServer;
  let log: EventLog;

  beforeAll(async () => ({ t, server, log } = await startScripted()));
  afterAll(() => stopScripted({ t, server }));

  it('a call to the server’s own address is refused and the model is told why', async () => {
    const project = scriptedProject(server);
    const a = api(t);
    const sessionID = await a.createSession(project);
    server.script(
      { toolCalls: [{ name: 'webfetch', input: { url: `${t.url}/api/session` } }] },
      { text: 'Could not fetch it.' },
    );
    await a.prompt(sessionID, { text: 'fetch the sessions page' });
    await log.idle(sessionID);
    const results = (server.requests.at(-1)!.body.messages as Json[]).filter((m) => m.role === 'tool');
    expect(JSON.stringify(results)).toContain('loopback and private addresses are not fetched');
    const step = (await a.messages(sessionID)).find((m) => m.type === 'assistant')!;
    expect(step.content[0].state).toMatchObject({ status: 'error' });
  });
});
