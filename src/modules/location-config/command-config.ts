import { FieldProblem, isRecord } from './mcp-config';

/** One `command` entry of a config file (opencode's `Config.Command`). */
export interface CommandConfig {
  template: string;
  description?: string;
  agent?: string;
  /** `provider/model` */
  model?: string;
  subtask?: boolean;
}

/** The `command` object of one document: bad entries are left out and reported by path. */
export function parseCommandSection(raw: unknown, problems: FieldProblem[]): Record<string, CommandConfig> {
  const commands: Record<string, CommandConfig> = {};
  if (!isRecord(raw)) {
    problems.push({ path: 'command', message: 'must be an object of name → { template, description?, … }' });
    return commands;
  }
  for (const [name, value] of Object.entries(raw)) {
    const path = `command.${name}`;
    if (!isRecord(value) || typeof value.template !== 'string' || value.template.trim() === '') {
      problems.push({ path: `${path}.template`, message: 'must be the prompt text' });
      continue;
    }
    const command: CommandConfig = { template: value.template };
    for (const key of ['description', 'agent', 'model'] as const) {
      const field = value[key];
      if (typeof field === 'string' && field.trim()) command[key] = field.trim();
      else if (field !== undefined) problems.push({ path: `${path}.${key}`, message: 'must be a string' });
    }
    if (value.subtask === true) command.subtask = true;
    commands[name] = command;
  }
  return commands;
}
