import { stat } from 'node:fs/promises';
import picomatch from 'picomatch';
import { walkBoundary } from '@/common/fs/locate';
import { locateForRun, pathChecks } from './paths';
import { ToolError } from './tool.errors';
import { Tool } from './tool.types';
import { outsideNote, walk } from './walk';

const MAX_ENTRIES = 500;

export interface ListInput {
  path?: string;
  ignore?: string[];
}

export const listTool: Tool<ListInput> = {
  name: 'list',
  action: 'list',
  description:
    'List the files and directories under a directory of the location (default: the location), recursively, ' +
    `directories ending in "/". Skips .git, node_modules and build output; at most ${MAX_ENTRIES} entries.`,
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Directory relative to the location, or absolute' },
      ignore: { type: 'array', items: { type: 'string' }, description: 'Glob patterns to leave out' },
    },
    additionalProperties: false,
  },
  permissions: (input, directory) => pathChecks(directory, input.path, 'list', 'directory'),
  async run(input, ctx) {
    const dir = locateForRun(ctx, input.path);
    const info = await stat(dir.absolute).catch(() => null);
    if (!info?.isDirectory()) throw new ToolError(`Not a directory: ${dir.display}`);
    const ignored = input.ignore?.length ? picomatch(input.ignore, { dot: true }) : () => false;
    const entries: string[] = [];
    const skipped: string[] = [];
    let truncated = false;
    for await (const entry of walk(dir.absolute, ctx.signal, walkBoundary(dir))) {
      if (ignored(entry.path)) continue;
      const shown = entry.directory ? `${entry.path}/` : entry.path;
      if (entry.outside) {
        skipped.push(shown);
        continue;
      }
      if (entries.length >= MAX_ENTRIES) {
        truncated = true;
        break;
      }
      entries.push(shown);
    }
    const output = entries.length === 0 ? '(empty directory)' : entries.join('\n');
    const more = truncated ? '\n(more entries not shown; list a subdirectory)' : '';
    return {
      output: `${output}${more}${outsideNote(skipped)}`,
      title: dir.display,
      metadata: { count: entries.length, truncated, skipped: skipped.length },
    };
  },
};
