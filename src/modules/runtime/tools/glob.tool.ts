import { stat } from 'node:fs/promises';
import picomatch from 'picomatch';
import { walkBoundary } from '@/common/fs/locate';
import { locateForRun, pathChecks } from './paths';
import { ToolError } from './tool.errors';
import { Tool } from './tool.types';
import { outsideNote, walk } from './walk';

const MAX_MATCHES = 100;

export interface GlobInput {
  pattern: string;
  path?: string;
}

export const globTool: Tool<GlobInput> = {
  name: 'glob',
  action: 'glob',
  description:
    'Find files whose path matches a glob pattern such as "**/*.ts" or "src/**/test-*.js", under a directory of ' +
    `the location (default: the location). Newest files first, at most ${MAX_MATCHES}.`,
  inputSchema: {
    type: 'object',
    properties: {
      pattern: { type: 'string' },
      path: { type: 'string', description: 'Directory to search, relative to the location or absolute' },
    },
    required: ['pattern'],
    additionalProperties: false,
  },
  permissions: (input, directory) => pathChecks(directory, input.path, 'glob', 'directory', input.pattern),
  async run(input, ctx) {
    const dir = locateForRun(ctx, input.path);
    const info = await stat(dir.absolute).catch(() => null);
    if (!info?.isDirectory()) throw new ToolError(`Not a directory: ${dir.display}`);
    const matches = picomatch(input.pattern, { dot: true });
    const found: Array<{ path: string; mtime: number }> = [];
    const skipped: string[] = [];
    let truncated = false;
    for await (const entry of walk(dir.absolute, ctx.signal, walkBoundary(dir))) {
      // A directory leading outside is named whatever the pattern: what it holds is unknown.
      if (entry.outside && (entry.directory || matches(entry.path))) {
        skipped.push(entry.directory ? `${entry.path}/` : entry.path);
        continue;
      }
      if (entry.directory || !matches(entry.path)) continue;
      if (found.length >= MAX_MATCHES) {
        truncated = true;
        break;
      }
      const mtime = (await stat(entry.real).catch(() => null))?.mtimeMs ?? 0;
      found.push({ path: entry.path, mtime });
    }
    found.sort((a, b) => b.mtime - a.mtime || a.path.localeCompare(b.path));
    const output = found.length === 0 ? 'No files found' : found.map((f) => f.path).join('\n');
    const more = truncated ? '\n(more matches not shown; use a narrower pattern)' : '';
    return {
      output: `${output}${more}${outsideNote(skipped)}`,
      title: input.pattern,
      metadata: { count: found.length, truncated, skipped: skipped.length },
    };
  },
};
