import { signup } from '../../helpers/console';
import { pollToken, requestCode } from '../../helpers/device';
import { basic, createTestApp, TestApp } from '../../helpers/test-app';

/**
 * `OUTPOST_TEST_FLEET=3` (CI's third pass, `npm run test:fleet`) runs the console and gateway suites through nginx
 * in front of three nodes; this checks that the mode is what it says, so that pass cannot quietly test one node.
 */
describe('OUTPOST_TEST_FLEET: a test app as nodes behind nginx', () => {
  let t: TestApp;

  beforeAll(async () => {
    const before = process.env.OUTPOST_TEST_FLEET;
    process.env.OUTPOST_TEST_FLEET = '3';
    try {
      t = await createTestApp();
    } finally {
      if (before === undefined) delete process.env.OUTPOST_TEST_FLEET;
      else process.env.OUTPOST_TEST_FLEET = before;
    }
  });
  afterAll(() => t?.close());

  /** The node that answered, as nginx reports it (`x-test-upstream`, test/helpers/nginx.ts). */
  const answeredBy = (res: { headers: Record<string, string> }) =>
    t.nodes.findIndex((node) => new URL(node.url).host === res.headers['x-test-upstream']);

  it('is three processes, the URL is none of theirs, and console requests spread across all of them', async () => {
    expect(t.nodes).toHaveLength(3);
    expect(new Set(t.nodes.map((node) => node.pid)).size).toBe(3);
    for (const node of t.nodes.slice(1)) expect(() => process.kill(node.pid, 0)).not.toThrow();
    expect(t.nodes.map((node) => node.url)).not.toContain(t.url);
    const person = await signup(t);
    const counts = [0, 0, 0];
    for (let i = 0; i < 6; i++) {
      const res = await person.get('/console/api/user');
      expect(res.status).toBe(200);
      counts[answeredBy(res)]++;
    }
    expect(counts).toEqual([2, 2, 2]);
  });

  it('the instance surface answers from the first node only', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await t.http.get('/api/agent').set('authorization', basic());
      expect(res.status).toBe(200);
      expect(answeredBy(res)).toBe(0);
    }
  });

  it('moving the test clock moves every node: each node sees the poll interval pass and the device code expire', async () => {
    const code = await requestCode(t);
    const nodes: number[] = [];
    for (let i = 0; i < 3; i++) {
      // A node still on the real clock would see the last poll under 5 s ago: slow_down.
      const res = await pollToken(t, code.device_code);
      expect(res.body.error).toBe('authorization_pending');
      nodes.push(answeredBy(res));
      t.clock.advance(5_000);
    }
    t.clock.advance(600_000);
    for (let i = 0; i < 3; i++) {
      const res = await pollToken(t, code.device_code);
      expect(res.body.error).toBe('expired_token');
      nodes.push(answeredBy(res));
    }
    expect(nodes.slice(0, 3).sort()).toEqual([0, 1, 2]);
    expect(nodes.slice(3).sort()).toEqual([0, 1, 2]);
  });
});
