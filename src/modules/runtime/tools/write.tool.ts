import { mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { locateForRun, pathChecks } from './paths';
import { ToolError } from './tool.errors';
import { Tool } from './tool.types';

export interface WriteInput {
  filePath: string;
  content: string;
}

export const writeTool: Tool<WriteInput> = {
  name: 'write',
  action: 'edit',
  description:
    'Write a whole file of the location, creating it and its directories or replacing its content.',
  inputSchema: {
    type: 'object',
    properties: {
      filePath: { type: 'string', description: 'Path relative to the location, or absolute' },
      content: { type: 'string' },
    },
    required: ['filePath', 'content'],
    additionalProperties: false,
  },
  permissions: (input, directory) => pathChecks(directory, input.filePath, 'edit', 'file'),
  async run(input, ctx) {
    const file = locateForRun(ctx, input.filePath);
    const existing = await stat(file.absolute).catch(() => null);
    if (existing?.isDirectory()) throw new ToolError(`${file.display} is a directory`);
    await mkdir(dirname(file.absolute), { recursive: true });
    await writeFile(file.absolute, input.content, { signal: ctx.signal });
    const bytes = Buffer.byteLength(input.content);
    return {
      output: `${existing ? 'Replaced' : 'Created'} ${file.display} (${bytes} bytes)`,
      title: file.display,
      metadata: { created: !existing, bytes },
    };
  },
};
