import { IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { signup } from '../../helpers/console';
import { basic, createTestApp, TestApp } from '../../helpers/test-app';

/**
 * `OUTPOST_TEST_FLEET=3` (CI's third pass, `npm run test:fleet`) runs the console and gateway suites through nginx
 * in front of three nodes; this checks that the mode is what it says, so that pass cannot quietly test one node.
 */
describe('OUTPOST_TEST_FLEET: a test app as nodes behind nginx', () => {
  let t: TestApp;
  const seen: string[][] = [];

  beforeAll(async () => {
    const before = process.env.OUTPOST_TEST_FLEET;
    process.env.OUTPOST_TEST_FLEET = '3';
    try {
      t = await createTestApp();
    } finally {
      if (before === undefined) delete process.env.OUTPOST_TEST_FLEET;
      else process.env.OUTPOST_TEST_FLEET = before;
    }
    t.nodes.forEach((node, index) => {
      seen[index] = [];
      (node.getHttpServer() as Server).on('request', (req: IncomingMessage) => seen[index].push(req.url!));
    });
  });
  afterAll(() => t?.close());

  it('is three nodes, the URL is none of theirs, and console requests spread across all of them', async () => {
    expect(t.nodes).toHaveLength(3);
    const ports = t.nodes.map((node) =>
      String(((node.getHttpServer() as Server).address() as AddressInfo).port),
    );
    expect(ports).not.toContain(new URL(t.url).port);
    const person = await signup(t);
    for (let i = 0; i < 6; i++) expect((await person.get('/console/api/user')).status).toBe(200);
    for (const urls of seen) expect(urls.filter((url) => url === '/console/api/user').length).toBe(2);
  });

  it('the instance surface answers from the first node only', async () => {
    for (let i = 0; i < 3; i++)
      expect((await t.http.get('/api/agent').set('authorization', basic())).status).toBe(200);
    expect(seen[0].filter((url) => url.startsWith('/api/agent'))).toHaveLength(3);
    expect(
      seen
        .slice(1)
        .flat()
        .some((url) => url.startsWith('/api/')),
    ).toBe(false);
  });
});
