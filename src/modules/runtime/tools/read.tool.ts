import { open, stat } from 'node:fs/promises';
import { locateForRun, pathChecks } from './paths';
import { ToolError } from './tool.errors';
import { Tool } from './tool.types';

const DEFAULT_LIMIT = 2_000;
const MAX_LINE = 2_000;
const MAX_BYTES = 50 * 1024;
const MAX_FILE_BYTES = 20 * 1024 * 1024;

export interface ReadInput {
  filePath: string;
  offset?: number;
  limit?: number;
}

export const readTool: Tool<ReadInput> = {
  name: 'read',
  action: 'read',
  description:
    'Read a text file of the location. Lines come numbered. `offset` is the first line (1-based), `limit` the ' +
    `number of lines (default ${DEFAULT_LIMIT}); long lines are cut.`,
  inputSchema: {
    type: 'object',
    properties: {
      filePath: { type: 'string', description: 'Path relative to the location, or absolute' },
      offset: { type: 'integer', minimum: 1 },
      limit: { type: 'integer', minimum: 1 },
    },
    required: ['filePath'],
    additionalProperties: false,
  },
  permissions: (input, directory) => pathChecks(directory, input.filePath, 'read', 'file'),
  async run(input, ctx) {
    const file = locateForRun(ctx, input.filePath);
    const info = await stat(file.absolute).catch(() => null);
    if (!info) throw new ToolError(`File not found: ${file.display}`);
    if (info.isDirectory()) throw new ToolError(`${file.display} is a directory; use the list tool`);
    if (info.size > MAX_FILE_BYTES) {
      throw new ToolError(
        `${file.display} is larger than ${MAX_FILE_BYTES} bytes; search it with grep or bash`,
      );
    }
    const content = await readText(file.absolute);
    if (content === null) throw new ToolError(`${file.display} is a binary file`);

    const numbered = numberLines(content, input.offset ?? 1, input.limit ?? DEFAULT_LIMIT);
    return {
      output: numbered.output,
      title: file.display,
      metadata: { lines: numbered.lines, from: numbered.from, to: numbered.to },
    };
  },
};

/**
 * A file's text as the read tool shows it: numbered lines from `offset` (1-based), at most `limit` of them and
 * MAX_BYTES in all, long lines cut, with a note saying where to read on.
 */
export function numberLines(content: string, offset = 1, limit = DEFAULT_LIMIT) {
  const lines = content.split('\n');
  if (content.endsWith('\n')) lines.pop();
  const start = offset - 1;
  const end = Math.min(lines.length, start + limit);
  const out: string[] = [];
  let bytes = 0;
  let last = start;
  for (let i = start; i < end; i++) {
    const line = lines[i].length > MAX_LINE ? `${lines[i].slice(0, MAX_LINE)}… (line cut)` : lines[i];
    const numbered = `${String(i + 1).padStart(6)}\t${line}`;
    bytes += Buffer.byteLength(numbered) + 1;
    if (bytes > MAX_BYTES) break;
    out.push(numbered);
    last = i + 1;
  }
  if (last < lines.length) {
    out.push(`(${lines.length - last} more lines; read again with offset ${last + 1})`);
  }
  return { output: out.join('\n'), lines: lines.length, from: start + 1, to: last };
}

/** The file as UTF-8, or null when its first 8 KiB hold a NUL byte. */
export async function readText(path: string): Promise<string | null> {
  const handle = await open(path, 'r');
  try {
    const buffer = await handle.readFile();
    if (buffer.subarray(0, 8192).includes(0)) return null;
    return buffer.toString('utf8');
  } finally {
    await handle.close();
  }
}
