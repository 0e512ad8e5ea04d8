import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../../helpers/eventually';
import { freePort, ServerProcess, startServer, waitForHealth } from '../../helpers/processes';
import { createTestDatabase } from '../../helpers/test-database';

jest.setTimeout(300_000);

const PASSWORD = 'log-test-password-7f3a';
const basic = `Basic ${Buffer.from(`opencode:${PASSWORD}`).toString('base64')}`;

interface LogLine {
  level: number;
  msg?: string;
  reqId?: string;
  req?: { method: string; url: string };
  res?: { statusCode: number };
  responseTime?: number;
}

function requestLines(output: string): LogLine[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine)
    .filter((line) => line.msg === 'request completed');
}

describe('request logs of a real `outpost serve` process', () => {
  let server: ServerProcess;
  let database: { url?: string; drop: () => Promise<void> };

  beforeAll(async () => {
    database = await createTestDatabase();
    server = startServer({
      PORT: String(await freePort()),
      DATABASE_URL: database.url,
      OUTPOST_PASSWORD: PASSWORD,
      OUTPOST_SURFACES: 'instance',
      OUTPOST_DATA_DIR: mkdtempSync(join(tmpdir(), 'outpost-logs-')),
      LOG_LEVEL: 'info',
    });
    await waitForHealth(server);
  });

  afterAll(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
    await database.drop();
  });

  it('logs one line per request with its request id, level by status, and no secret', async () => {
    const ok = await fetch(`${server.url}/api/session/active`, {
      headers: { authorization: basic, 'x-request-id': 'trace-ok-1' },
    });
    const token = Buffer.from(`opencode:${PASSWORD}`).toString('base64');
    const query = await fetch(`${server.url}/api/session/active?auth_token=${encodeURIComponent(token)}`);
    const denied = await fetch(`${server.url}/api/session/active`, {
      headers: { authorization: `Basic ${Buffer.from('opencode:wrong-secret-9c1d').toString('base64')}` },
    });
    const pairing = await fetch(`${server.url}/auth/connect/secret-pairing-code-123`);
    expect([ok.status, query.status, denied.status, pairing.status]).toEqual([200, 200, 401, 401]);
    // Each line is written once its response has finished: all four, on the server's own time.
    const ids = ['trace-ok-1', ...[query, denied, pairing].map((res) => res.headers.get('x-request-id'))];
    const lines = await eventually(
      () => requestLines(server.output()),
      (found) => ids.every((id) => found.some((line) => line.reqId === id)),
    );
    const byId = (id: string | null) => lines.find((line) => line.reqId === id);
    const first = byId('trace-ok-1');
    expect(first).toMatchObject({
      level: 30,
      req: { method: 'GET', url: '/api/session/active' },
      res: { statusCode: 200 },
    });
    expect(typeof first?.responseTime).toBe('number');
    expect(byId(query.headers.get('x-request-id'))?.req?.url).toBe(
      '/api/session/active?auth_token=[redacted]',
    );
    expect(byId(denied.headers.get('x-request-id'))).toMatchObject({ level: 40, res: { statusCode: 401 } });
    expect(byId(pairing.headers.get('x-request-id'))?.req?.url).toBe('/auth/connect/[redacted]');

    const output = server.output();
    for (const secret of [PASSWORD, token, 'wrong-secret-9c1d', 'secret-pairing-code-123', basic]) {
      expect(output).not.toContain(secret);
    }
  });
});
