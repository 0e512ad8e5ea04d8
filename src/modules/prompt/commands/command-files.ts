import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { splitFrontMatter } from '@/common/text/front-matter';

/** Command folders inside a project root or location (and, without the `.opencode/` part, the config dir). */
export const PROJECT_COMMAND_DIRS = ['.opencode/command', '.opencode/commands', '.outpost/commands'];
export const GLOBAL_COMMAND_DIRS = ['command', 'commands', ...PROJECT_COMMAND_DIRS];

/** A command template, as opencode's clients list it (`Command`). */
export interface CommandInfo {
  name: string;
  description?: string;
  agent?: string;
  model?: string;
  template: string;
  subtask?: boolean;
  /** Where it comes from (opencode's `source`): a file, or an MCP server's prompt. */
  source?: 'command' | 'mcp';
}

/** One `<name>.md`: optional YAML front matter (`description`, `agent`, `model`, `subtask`), the body the template. */
export function parseCommandFile(file: string, text: string): CommandInfo | undefined {
  const split = splitFrontMatter(text);
  if ('error' in split) return undefined; // a broken file is left out
  const { meta, body } = split;
  const text_ = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
  const template = body.trim();
  if (!template) return undefined;
  const command: CommandInfo = { name: basename(file, '.md'), template };
  const description = text_(meta.description);
  const agent = text_(meta.agent);
  const model = text_(meta.model);
  if (description) command.description = description;
  if (agent) command.agent = agent;
  if (model) command.model = model;
  if (meta.subtask === true) command.subtask = true;
  return command;
}

/** The commands of the given folders under each base, later ones overriding earlier ones by name. */
export async function readCommands(sources: Array<{ base: string; dirs: string[] }>): Promise<CommandInfo[]> {
  const commands = new Map<string, CommandInfo>();
  for (const { base, dirs } of sources) {
    for (const dir of dirs) {
      const folder = join(base, dir);
      const names = await readdir(folder).catch(() => [] as string[]);
      for (const name of names.filter((n) => n.endsWith('.md')).sort()) {
        const text = await readFile(join(folder, name), 'utf8').catch(() => undefined);
        const command = text === undefined ? undefined : parseCommandFile(name, text);
        if (command) commands.set(command.name, command);
      }
    }
  }
  return [...commands.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The prompt of a command: `$ARGUMENTS` is the whole argument text, `$1`, `$2`, … the words (the highest
 * placeholder takes the rest of the words); a template without placeholders gets the arguments appended.
 */
export function expandTemplate(template: string, args: string): string {
  const words = args.trim() === '' ? [] : args.trim().split(/\s+/);
  const numbers = [...template.matchAll(/\$(\d+)/g)].map((m) => Number(m[1]));
  const last = numbers.length ? Math.max(...numbers) : 0;
  let out = template.replace(/\$(\d+)/g, (_m, n: string) => {
    const index = Number(n) - 1;
    return Number(n) === last ? words.slice(index).join(' ') : (words[index] ?? '');
  });
  const hadArguments = out.includes('$ARGUMENTS');
  out = out.replace(/\$ARGUMENTS/g, args.trim());
  if (!hadArguments && last === 0 && args.trim()) out = `${out}\n\n${args.trim()}`;
  return out;
}
