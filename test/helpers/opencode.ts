import { ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Terminal } from '@xterm/headless';
import { TEST_PASSWORD } from './test-app';

const FOCUS_IN = '\u001b[I';
const FOCUS_OUT = '\u001b[O';

/**
 * The released opencode 1.18.33 binary: the Linux x64 build `opencode-ai` installs, taken directly as an optional
 * dependency (the npm registry this project is tested against serves no other platform's build).
 */
export const OPENCODE = join(__dirname, '..', '..', 'node_modules', 'opencode-linux-x64', 'bin', 'opencode');

/** A throw-away HOME with the XDG folders under it, so the CLI neither reads nor writes the person's own. */
export function opencodeEnv(extra: Record<string, string> = {}): Record<string, string> {
  const home = mkdtempSync(join(tmpdir(), 'outpost-opencode-home-'));
  const xdg = {
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
  };
  for (const dir of Object.values(xdg)) mkdirSync(dir, { recursive: true });
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    ...xdg,
    OPENCODE_SERVER_PASSWORD: TEST_PASSWORD,
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    ...extra,
  };
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI to its end (killed after `timeoutMs`), with its output. */
export function opencode(
  args: string[],
  options: { env: Record<string, string>; cwd?: string; timeoutMs?: number; input?: string },
): Promise<Finished> {
  return new Promise((resolve) => {
    const child = spawn(OPENCODE, args, {
      env: options.env,
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    if (options.input !== undefined) child.stdin.write(options.input);
    child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * The TUI in a pseudo-terminal (`script`), its output read by a headless xterm that also answers the
 * terminal's queries (cursor position, modes), as a real terminal does.
 */
export class Tui {
  private readonly term = new Terminal({ cols: 120, rows: 40, allowProposedApi: true });
  private readonly child: ChildProcess;
  readonly exited: Promise<number | null>;

  constructor(args: string[], env: Record<string, string>, cwd?: string) {
    const command = [OPENCODE, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    this.child = spawn('script', ['-qfec', `stty cols 120 rows 40; exec ${command}`, '/dev/null'], {
      env: { ...env, TERM: 'xterm-256color' },
      cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stdout!.on('data', (chunk: Buffer) => this.term.write(chunk));
    // Focus reports would make the TUI redraw in a loop; everything else the terminal answers goes back.
    this.term.onData((data) => {
      if (data !== FOCUS_IN && data !== FOCUS_OUT) this.child.stdin!.write(data);
    });
    this.exited = new Promise((resolve) => this.child.on('exit', resolve));
  }

  screen(): string {
    const buffer = this.term.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < this.term.rows; i++) {
      lines.push(buffer.getLine(buffer.viewportY + i)?.translateToString(true) ?? '');
    }
    return lines.join('\n');
  }

  type(text: string): void {
    this.child.stdin!.write(text);
  }

  /** Waits until the screen shows `text` (or `timeoutMs` passes: then fails with the screen). */
  async waitFor(text: string | RegExp, timeoutMs = 60_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = this.screen();
      if (typeof text === 'string' ? screen.includes(text) : text.test(screen)) return screen;
      if (Date.now() > deadline)
        throw new Error(`the TUI never showed ${String(text)}; it shows:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  async stop(): Promise<void> {
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 3_000);
    await this.exited;
    clearTimeout(timer);
  }
}
