import { readFile, stat, writeFile } from 'node:fs/promises';
import { locateForRun, pathChecks } from './paths';
import { ToolError } from './tool.errors';
import { FileDiff, unifiedDiff } from './diff';
import { Tool } from './tool.types';

export interface EditInput {
  filePath: string;
  oldString: string;
  newString: string;
  replaceAll?: boolean;
}

export const editTool: Tool<EditInput> = {
  name: 'edit',
  action: 'edit',
  description:
    'Replace an exact string in a file of the location. `oldString` must occur exactly once (include surrounding ' +
    'lines to make it unique) unless `replaceAll` is true. An empty `oldString` creates a new file.',
  inputSchema: {
    type: 'object',
    properties: {
      filePath: { type: 'string', description: 'Path relative to the location, or absolute' },
      oldString: { type: 'string', description: 'The exact text to replace' },
      newString: { type: 'string', description: 'The text to put in its place' },
      replaceAll: { type: 'boolean', description: 'Replace every occurrence' },
    },
    required: ['filePath', 'oldString', 'newString'],
    additionalProperties: false,
  },
  permissions: (input, directory) => pathChecks(directory, input.filePath, 'edit', 'file'),
  async run(input, ctx) {
    const file = locateForRun(ctx, input.filePath);
    if (input.oldString === input.newString) throw new ToolError('oldString and newString are the same');
    const info = await stat(file.absolute).catch(() => null);
    if (info?.isDirectory()) throw new ToolError(`${file.display} is a directory`);

    if (input.oldString === '') {
      if (info && info.size > 0) {
        throw new ToolError(
          `oldString is empty but ${file.display} already has content; give the text to replace`,
        );
      }
      await writeFile(file.absolute, input.newString, { signal: ctx.signal });
      const change = unifiedDiff(file.display, '', input.newString);
      return {
        output: `Created ${file.display}`,
        title: file.display,
        metadata: { replacements: 0, created: true, ...diffMetadata(file.display, change) },
      };
    }
    if (!info) throw new ToolError(`File not found: ${file.display}`);

    const content = await readFile(file.absolute, 'utf8');
    const count = occurrences(content, input.oldString);
    if (count === 0) throw new ToolError(`oldString was not found in ${file.display}`);
    if (count > 1 && !input.replaceAll) {
      throw new ToolError(
        `oldString occurs ${count} times in ${file.display}; include more surrounding text to make it unique, ` +
          'or set replaceAll to replace every occurrence',
      );
    }
    // split/join: a literal replacement, so `$&` in newString is not a pattern.
    const updated = input.replaceAll
      ? content.split(input.oldString).join(input.newString)
      : content.replace(input.oldString, () => input.newString);
    await writeFile(file.absolute, updated, { signal: ctx.signal });
    const change = unifiedDiff(file.display, content, updated);
    return {
      output: `Edited ${file.display}: ${count} replacement${count === 1 ? '' : 's'}`,
      title: file.display,
      metadata: { replacements: count, created: false, ...diffMetadata(file.display, change) },
    };
  },
};

/** What opencode's clients draw for an edit: `diff`, and `filediff` with the counts. */
function diffMetadata(file: string, change: FileDiff) {
  const { diff, additions, deletions } = change;
  return { diff, filediff: { file, additions, deletions } };
}

function occurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length))
    count++;
  return count;
}
