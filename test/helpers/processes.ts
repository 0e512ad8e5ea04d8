import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

export const MAIN = join(__dirname, '..', '..', 'dist', 'main.js');

/** Servers still running; whatever a test file leaves behind (a failed assertion, a time-out) is killed at its end. */
const live = new Set<ChildProcess>();
afterAll(() => {
  for (const child of live) child.kill('SIGKILL');
});

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  exited: Promise<number | null>;
}

/** Starts `node dist/main.js` (built by `npm test`'s pretest) with the given environment. */
export function startServer(env: Record<string, string | undefined>): ServerProcess {
  let output = '';
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  live.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      live.delete(child);
      resolve(code);
    }),
  );
  return { child, url: `http://127.0.0.1:${env.PORT}`, output: () => output, exited };
}

export async function waitForHealth(url: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(`${url}/health`);
      if (res.status === 200) return;
    } catch {}
    if (Date.now() > deadline) throw new Error(`${url} did not become healthy`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A port that nothing listens on right now. */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
