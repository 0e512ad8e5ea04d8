import { spawn } from 'node:child_process';
import { ToolAbortedError, ToolError } from './tool.errors';
import { Tool } from './tool.types';

export interface BashInput {
  command: string;
  timeout?: number;
  description?: string;
}

export interface BashOptions {
  /** Time-out when the model gives none. */
  defaultTimeoutMs: number;
  /** The largest time-out the model may ask for. */
  maxTimeoutMs: number;
  /** Output kept for the model: the first and the last half of this many bytes. */
  maxOutputBytes: number;
  /** Grace between SIGTERM and SIGKILL when the command is stopped. */
  killGraceMs: number;
}

export const DEFAULT_BASH_OPTIONS: BashOptions = {
  defaultTimeoutMs: 120_000,
  maxTimeoutMs: 600_000,
  maxOutputBytes: 30_000,
  killGraceMs: 2_000,
};

/** Server settings a command started by the model has no business reading. */
const HIDDEN_ENV = /^(OUTPOST_|DATABASE_URL$|REDIS_URL$)/;

/** The server's environment without its own settings, for the programs it starts (commands, MCP servers). */
export function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!HIDDEN_ENV.test(name)) env[name] = value;
  return env;
}

/**
 * Runs a command with `bash -c` in the location directory. The command comes from the model, so this is the one
 * place where a shell is intended; the permission rules (`bash` on the command text) decide whether it runs.
 * The command runs in its own process group, which is killed on time-out or interrupt.
 */
export function createBashTool(overrides: Partial<BashOptions> = {}): Tool<BashInput> {
  const options = { ...DEFAULT_BASH_OPTIONS, ...overrides };
  return {
    name: 'bash',
    action: 'bash',
    description:
      'Run a bash command in the location directory. Output (stdout and stderr together) is cut to ' +
      `${options.maxOutputBytes} bytes, keeping its start and end. \`timeout\` in milliseconds ` +
      `(default ${options.defaultTimeoutMs}, at most ${options.maxTimeoutMs}).`,
    inputSchema: {
      type: 'object',
      properties: {
        command: { type: 'string' },
        timeout: { type: 'integer', minimum: 1 },
        description: { type: 'string', description: 'What the command does, in a few words' },
      },
      required: ['command'],
      additionalProperties: false,
    },
    permissions: (input) => [{ action: 'bash', resource: input.command }],
    run: (input, ctx) => {
      if (input.command.trim() === '') throw new ToolError('command is empty');
      const timeoutMs = Math.min(input.timeout ?? options.defaultTimeoutMs, options.maxTimeoutMs);
      return runCommand(input, ctx.directory, ctx.signal, timeoutMs, options);
    },
  };
}

export const bashTool = createBashTool();

function runCommand(
  input: BashInput,
  cwd: string,
  signal: AbortSignal,
  timeoutMs: number,
  options: BashOptions,
): ReturnType<Tool['run']> {
  if (signal.aborted) return Promise.reject(new ToolAbortedError());
  const env = childEnv();

  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', input.command], {
      cwd,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output = new CappedOutput(options.maxOutputBytes);
    child.stdout.on('data', (chunk: Buffer) => output.add(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.add(chunk));

    let stopped: 'timeout' | 'abort' | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    const stop = (reason: 'timeout' | 'abort') => {
      if (stopped) return;
      stopped = reason;
      killGroup(child.pid, 'SIGTERM');
      killTimer = setTimeout(() => {
        killGroup(child.pid, 'SIGKILL');
        // A grandchild that left the group may still hold the pipes open.
        child.stdout.destroy();
        child.stderr.destroy();
      }, options.killGraceMs);
    };
    const timer = setTimeout(() => stop('timeout'), timeoutMs);
    const onAbort = () => stop('abort');
    signal.addEventListener('abort', onAbort, { once: true });

    child.on('error', (error) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      reject(new ToolError(`Could not start bash: ${error.message}`));
    });
    child.on('close', (code, signalName) => {
      clearTimeout(timer);
      clearTimeout(killTimer);
      signal.removeEventListener('abort', onAbort);
      const text = output.text();
      if (stopped === 'abort') return reject(new ToolAbortedError(text));
      const notes: string[] = [];
      if (stopped === 'timeout') notes.push(`[timed out after ${timeoutMs} ms; the command was killed]`);
      else if (code !== 0) notes.push(code === null ? `[killed by ${signalName}]` : `[exit code ${code}]`);
      resolve({
        output: [text || '(no output)', ...notes].join('\n'),
        title: input.description ?? input.command,
        metadata: {
          // opencode's TUI draws a bash part from its metadata's output.
          output: text,
          exit: code,
          timedOut: stopped === 'timeout',
          truncated: output.truncated,
          ...(input.description ? { description: input.description } : {}),
        },
      });
    });
  });
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** Keeps the first and the last half of the cap; counts what was dropped in between. */
class CappedOutput {
  private head = Buffer.alloc(0);
  private tail = Buffer.alloc(0);
  private dropped = 0;

  constructor(private readonly cap: number) {}

  get truncated(): boolean {
    return this.dropped > 0;
  }

  add(chunk: Buffer): void {
    const half = Math.floor(this.cap / 2);
    if (this.head.length < half) {
      const room = half - this.head.length;
      this.head = Buffer.concat([this.head, chunk.subarray(0, room)]);
      chunk = chunk.subarray(room);
    }
    if (chunk.length === 0) return;
    const tail = Buffer.concat([this.tail, chunk]);
    const keep = this.cap - half;
    this.dropped += Math.max(0, tail.length - keep);
    this.tail = tail.length > keep ? tail.subarray(tail.length - keep) : tail;
  }

  text(): string {
    const head = this.head.toString('utf8');
    const tail = this.tail.toString('utf8');
    if (!this.truncated) return head + tail;
    return `${head}\n… [${this.dropped} bytes of output omitted] …\n${tail}`;
  }
}
