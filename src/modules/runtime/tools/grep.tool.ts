import { stat } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import picomatch from 'picomatch';
import { walkBoundary } from '@/common/fs/locate';
import { locateForRun, pathChecks } from './paths';
import { ToolAbortedError, ToolError } from './tool.errors';
import { Tool } from './tool.types';
import { outsideNote, walk } from './walk';

export interface GrepInput {
  pattern: string;
  path?: string;
  include?: string;
}

export interface GrepOptions {
  maxMatches: number;
  maxFileBytes: number;
  maxLine: number;
  /** The model writes the pattern, and a regular expression can backtrack for ever: stop the search after this. */
  timeoutMs: number;
}

export const DEFAULT_GREP_OPTIONS: GrepOptions = {
  maxMatches: 100,
  maxFileBytes: 1024 * 1024,
  maxLine: 500,
  timeoutMs: 20_000,
};

interface SearchFile {
  path: string;
  absolute: string;
}

interface SearchResult {
  matches: string[];
  truncated: boolean;
}

/**
 * Matching runs in a worker thread (plain JavaScript, evaluated), so a pattern that backtracks badly can be
 * stopped by terminating the worker instead of freezing the server's event loop.
 */
const SEARCH_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const { pattern, files, maxMatches, maxFileBytes, maxLine } = workerData;
const regex = new RegExp(pattern);
const matches = [];
let truncated = false;
search: for (const file of files) {
  let buffer;
  try {
    if (fs.statSync(file.absolute).size > maxFileBytes) continue;
    buffer = fs.readFileSync(file.absolute);
  } catch {
    continue;
  }
  if (buffer.subarray(0, 8192).includes(0)) continue;
  const lines = buffer.toString('utf8').split('\\n');
  for (let i = 0; i < lines.length; i++) {
    if (!regex.test(lines[i])) continue;
    if (matches.length >= maxMatches) {
      truncated = true;
      break search;
    }
    const line = lines[i].length > maxLine ? lines[i].slice(0, maxLine) + '…' : lines[i];
    matches.push(file.path + ':' + (i + 1) + ': ' + line);
  }
}
parentPort.postMessage({ matches, truncated });
`;

export function createGrepTool(overrides: Partial<GrepOptions> = {}): Tool<GrepInput> {
  const options = { ...DEFAULT_GREP_OPTIONS, ...overrides };
  return {
    name: 'grep',
    action: 'grep',
    description:
      'Search file contents with a regular expression (JavaScript syntax) under a directory of the location. ' +
      `\`include\` limits the files by glob (e.g. "*.ts"). Answers "path:line: text", at most ${options.maxMatches} ` +
      'matches.',
    inputSchema: {
      type: 'object',
      properties: {
        pattern: { type: 'string' },
        path: { type: 'string', description: 'Directory to search, relative to the location or absolute' },
        include: { type: 'string', description: 'Glob of the files to search' },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
    permissions: (input, directory) => pathChecks(directory, input.path, 'grep', 'directory', input.pattern),
    async run(input, ctx) {
      try {
        new RegExp(input.pattern);
      } catch (error) {
        throw new ToolError(`Invalid regular expression: ${(error as Error).message}`);
      }
      const dir = locateForRun(ctx, input.path);
      const info = await stat(dir.absolute).catch(() => null);
      if (!info?.isDirectory()) throw new ToolError(`Not a directory: ${dir.display}`);
      const included = input.include ? picomatch(input.include, { dot: true, basename: true }) : () => true;

      const files: SearchFile[] = [];
      const skipped: string[] = [];
      for await (const entry of walk(dir.absolute, ctx.signal, walkBoundary(dir))) {
        // A directory leading outside is named whatever `include` says: what it holds is unknown.
        if (entry.outside && entry.directory) skipped.push(`${entry.path}/`);
        else if (entry.directory || !included(entry.path)) continue;
        else if (entry.outside) skipped.push(entry.path);
        else files.push({ path: entry.path, absolute: entry.real });
      }
      const { matches, truncated } = await search(input.pattern, files, options, ctx.signal);
      const output = matches.length === 0 ? 'No matches found' : matches.join('\n');
      const more = truncated ? '\n(more matches not shown; narrow the pattern or path)' : '';
      return {
        output: `${output}${more}${outsideNote(skipped)}`,
        title: input.pattern,
        metadata: { count: matches.length, matches: matches.length, truncated, skipped: skipped.length },
      };
    },
  };
}

export const grepTool = createGrepTool();

function search(pattern: string, files: SearchFile[], options: GrepOptions, signal: AbortSignal) {
  if (signal.aborted) return Promise.reject(new ToolAbortedError());
  return new Promise<SearchResult>((resolve, reject) => {
    const { maxMatches, maxFileBytes, maxLine } = options;
    const worker = new Worker(SEARCH_WORKER, {
      eval: true,
      workerData: { pattern, files, maxMatches, maxFileBytes, maxLine },
    });
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      void worker.terminate();
      settle();
    };
    const onAbort = () => finish(() => reject(new ToolAbortedError()));
    const timer = setTimeout(
      () =>
        finish(() =>
          reject(
            new ToolError(`grep stopped after ${options.timeoutMs} ms; the pattern may backtrack too much`),
          ),
        ),
      options.timeoutMs,
    );
    signal.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (result: SearchResult) => finish(() => resolve(result)));
    worker.once('error', (error) => finish(() => reject(new ToolError(`grep failed: ${error.message}`))));
  });
}
