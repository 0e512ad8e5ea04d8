import { readFile, stat } from 'node:fs/promises';
import picomatch from 'picomatch';
import { locateForRun, pathChecks } from './paths';
import { ToolError } from './tool.errors';
import { Tool } from './tool.types';
import { walk } from './walk';

const MAX_MATCHES = 100;
const MAX_FILE_BYTES = 1024 * 1024;
const MAX_LINE = 500;

export interface GrepInput {
  pattern: string;
  path?: string;
  include?: string;
}

export const grepTool: Tool<GrepInput> = {
  name: 'grep',
  action: 'grep',
  description:
    'Search file contents with a regular expression (JavaScript syntax) under a directory of the location. ' +
    `\`include\` limits the files by glob (e.g. "*.ts"). Answers "path:line: text", at most ${MAX_MATCHES} matches.`,
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
    let regex: RegExp;
    try {
      regex = new RegExp(input.pattern);
    } catch (error) {
      throw new ToolError(`Invalid regular expression: ${(error as Error).message}`);
    }
    const dir = locateForRun(ctx, input.path);
    const info = await stat(dir.absolute).catch(() => null);
    if (!info?.isDirectory()) throw new ToolError(`Not a directory: ${dir.display}`);
    const included = input.include ? picomatch(input.include, { dot: true, basename: true }) : () => true;

    const matches: string[] = [];
    let truncated = false;
    search: for await (const entry of walk(dir.absolute, ctx.signal)) {
      if (entry.directory || !included(entry.path)) continue;
      const size = (await stat(entry.absolute).catch(() => null))?.size ?? 0;
      if (size > MAX_FILE_BYTES) continue;
      const buffer = await readFile(entry.absolute).catch(() => null);
      if (!buffer || buffer.subarray(0, 8192).includes(0)) continue;
      const lines = buffer.toString('utf8').split('\n');
      for (let i = 0; i < lines.length; i++) {
        if (!regex.test(lines[i])) continue;
        if (matches.length >= MAX_MATCHES) {
          truncated = true;
          break search;
        }
        const line = lines[i].length > MAX_LINE ? `${lines[i].slice(0, MAX_LINE)}…` : lines[i];
        matches.push(`${entry.path}:${i + 1}: ${line}`);
      }
    }
    const output = matches.length === 0 ? 'No matches found' : matches.join('\n');
    return {
      output: truncated ? `${output}\n(more matches not shown; narrow the pattern or path)` : output,
      title: input.pattern,
      metadata: { count: matches.length, truncated },
    };
  },
};
