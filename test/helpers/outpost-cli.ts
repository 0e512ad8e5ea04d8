import { spawn } from 'node:child_process';
import { join } from 'node:path';

const CLI = join(__dirname, '..', '..', 'dist', 'cli.js');

/**
 * The CLI's environment: the tests' consoles listen on loopback, which the outbound guard refuses unless the
 * operator allows it; `env` adds to it or takes it away (`OUTPOST_CONNECTIONS_ALLOW: undefined`).
 */
function cliEnv(dataDir: string, env: Record<string, string | undefined>) {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    OUTPOST_DATA_DIR: dataDir,
    OUTPOST_CONNECTIONS_ALLOW: '127.0.0.1',
    ...env,
  };
}

/** `outpost login <url>` as a user runs it; resolves with its output once it printed the code, and its exit. */
export function runLogin(dataDir: string, consoleUrl: string) {
  const child = spawn(process.execPath, [CLI, 'login', consoleUrl], {
    env: cliEnv(dataDir, {}),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const code = new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const found = /shows the code (\S+)/.exec(output);
      if (found) {
        clearInterval(timer);
        resolve(found[1]);
      }
    }, 50);
    child.on('exit', () => {
      clearInterval(timer);
      reject(new Error(`outpost login exited: ${output}`));
    });
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, exited, output: () => output };
}

/** Runs `outpost <args>` to the end. */
export function runCli(
  dataDir: string,
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: cliEnv(dataDir, env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })));
}
