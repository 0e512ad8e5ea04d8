import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../../helpers/eventually';
import { freePort, ServerProcess, startServer, waitForHealth } from '../../helpers/processes';
import { createTestDatabase } from '../../helpers/test-database';

jest.setTimeout(300_000);

const PASSWORD = 'log-lines-password-51c2';
const basic = `Basic ${Buffer.from(`opencode:${PASSWORD}`).toString('base64')}`;

/** A real `outpost serve` whose log is written for a person to read (`LOG_FORMAT=pretty`), at `level`. */
async function readableServer(level: string) {
  const database = await createTestDatabase();
  const server = startServer({
    PORT: String(await freePort()),
    DATABASE_URL: database.url,
    OUTPOST_PASSWORD: PASSWORD,
    OUTPOST_DATA_DIR: mkdtempSync(join(tmpdir(), 'outpost-log-lines-')),
    LOG_LEVEL: level,
    LOG_FORMAT: 'pretty',
  });
  await waitForHealth(server);
  return { server, database };
}

async function stop(server: ServerProcess, database: { drop: () => Promise<void> }) {
  server.child.kill('SIGTERM');
  await server.exited;
  await database.drop();
}

/** A few requests, then the lines the log has for them. */
async function requestsLogged(server: ServerProcess): Promise<string[]> {
  const ok = await fetch(`${server.url}/api/session/active`, { headers: { authorization: basic } });
  const secret = await fetch(`${server.url}/api/session/active?auth_token=not-for-the-log-77`);
  expect([ok.status, secret.status]).toEqual([200, 401]);
  // Written once each response has finished: the second request's line comes after the first's.
  const output = await eventually(
    () => server.output(),
    (text) => /auth_token=\[redacted\] 401 \d+ms$/m.test(text),
  );
  return output.split('\n');
}

describe('the request log on a terminal (LOG_FORMAT=pretty)', () => {
  it('at info: one line per request, method, path, status and time, and nothing under it', async () => {
    const { server, database } = await readableServer('info');
    try {
      const lines = await requestsLogged(server);
      const at = lines.findIndex((line) => / INFO: GET \/api\/session\/active 200 \d+ms$/.test(line));
      expect(at).toBeGreaterThanOrEqual(0);
      // The next line is the next request's, not the request object.
      expect(lines[at + 1]).toMatch(/ WARN: GET \/api\/session\/active\?auth_token=\[redacted\] 401 \d+ms$/);
      const output = server.output();
      expect(output).not.toContain('remoteAddress');
      expect(output).not.toContain('not-for-the-log-77');
    } finally {
      await stop(server, database);
    }
  });

  it('at debug: the same line, with the request object under it', async () => {
    const { server, database } = await readableServer('debug');
    try {
      const lines = await requestsLogged(server);
      const at = lines.findIndex((line) => / INFO: GET \/api\/session\/active 200 \d+ms$/.test(line));
      expect(at).toBeGreaterThanOrEqual(0);
      expect(lines.slice(at + 1, at + 8).join('\n')).toContain('remoteAddress');
      expect(server.output()).not.toContain('not-for-the-log-77');
    } finally {
      await stop(server, database);
    }
  });
});

describe('the icon', () => {
  it('is linked from the web app and the console pages, and /favicon.ico answers with it', async () => {
    const { server, database } = await readableServer('warn');
    try {
      for (const path of ['/', '/console/login']) {
        const page = await (await fetch(`${server.url}${path}`)).text();
        expect(page).toContain('<link rel="icon" href="/web/favicon.svg" type="image/svg+xml">');
      }
      for (const path of ['/web/favicon.svg', '/favicon.ico']) {
        const icon = await fetch(`${server.url}${path}`);
        expect(icon.status).toBe(200);
        expect(icon.headers.get('content-type')).toBe('image/svg+xml');
        expect(await icon.text()).toMatch(/^<svg /);
      }
    } finally {
      await stop(server, database);
    }
  });
});
