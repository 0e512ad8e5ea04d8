import { Injectable } from '@nestjs/common';
import { AgentsService } from '../../agents/agents.service';
import { LocationConfigService } from '../../location-config/location-config.service';
import { ResolvedLocation } from '../../locations/location.types';
import { McpService } from '../../mcp/mcp.service';
import { decide } from '../../runtime/permissions/evaluate';
import { bashTool } from '../../runtime/tools/bash.tool';
import { SessionInfo } from '../../sessions/session.types';
import { sessionAgent } from '../loop/session-agent';
import { runCommand } from '../shell/session-shell';
import { BUILTIN_COMMANDS } from './builtin-commands';
import {
  CommandInfo,
  expandTemplate,
  GLOBAL_COMMAND_DIRS,
  PROJECT_COMMAND_DIRS,
  readCommands,
} from './command-files';
import { referencedFiles, runTemplateShell } from './command-expansion';
import { CommandNotFoundError } from './commands.errors';

/** A command made ready to prompt: its text, and the files its `@path` references attach. */
export interface RenderedCommand {
  command: CommandInfo;
  text: string;
  files: string[];
}

/**
 * A location's command templates (the TUI's `/name` commands): the built-in `init` and `review`, the config's
 * `command` entries, markdown files in the global config dir, the project root and the location (later ones
 * overriding earlier ones by name), then the prompts of its MCP servers (`<server>:<prompt>`). Read on each call:
 * they are few and small, and an edited file applies at once.
 */
@Injectable()
export class CommandsService {
  constructor(
    private readonly configs: LocationConfigService,
    private readonly mcp: McpService,
    private readonly agents: AgentsService,
  ) {}

  async list(location: ResolvedLocation): Promise<CommandInfo[]> {
    const files = await this.templates(location);
    const names = new Set(files.map((command) => command.name));
    const prompts = (await this.mcp.prompts(location)).filter((prompt) => !names.has(prompt.command));
    // An MCP prompt's template is the server's to give: fetched when the command runs (`get`).
    const fromMcp = prompts.map((prompt) => ({
      name: prompt.command,
      ...(prompt.description ? { description: prompt.description } : {}),
      template: '',
      source: 'mcp' as const,
    }));
    return [...files, ...fromMcp];
  }

  async get(location: ResolvedLocation, name: string): Promise<CommandInfo> {
    const found = (await this.templates(location)).find((command) => command.name === name);
    if (found) return found;
    const prompt = (await this.mcp.prompts(location)).find((p) => p.command === name);
    if (!prompt) throw new CommandNotFoundError(name);
    const description = prompt.description ? { description: prompt.description } : {};
    return { name, ...description, template: await prompt.template(), source: 'mcp' };
  }

  /**
   * The command's prompt for a session: the arguments filled in, then (for the location's own templates, not an
   * MCP server's prompt) each `` !`cmd` `` replaced by its output (run in the location under the `bash` rules of
   * the agent and the session: a denied one is named, not run), and the files its `@path` references name.
   */
  async render(
    session: SessionInfo,
    location: ResolvedLocation,
    name: string,
    args: string,
    agentID?: string,
  ) {
    const command = await this.get(location, name);
    const agent = await sessionAgent(this.agents, location, command.agent ?? agentID ?? session.agent);
    const rules = [agent.permissions, session.permissions ?? []];
    const shell = async (line: string) => {
      const checks = bashTool.permissions({ command: line }, location.directory);
      if (decide(checks, ...rules).effect === 'deny') {
        return `[not run: the permission rules deny bash \`${line}\`]`;
      }
      return (await runCommand(line, location.directory)).output.trimEnd();
    };
    const filled = expandTemplate(command.template, args);
    // An MCP server's prompt is the server's text: it runs nothing here and attaches nothing.
    if (command.source === 'mcp') return { command, text: filled, files: [] } satisfies RenderedCommand;
    const text = await runTemplateShell(filled, shell);
    return {
      command,
      text,
      files: await referencedFiles(text, location.directory),
    } satisfies RenderedCommand;
  }

  /** Built-in, config and file commands, later ones replacing earlier ones by name, sorted by name. */
  private async templates(location: ResolvedLocation): Promise<CommandInfo[]> {
    const sources = [
      { base: this.configs.globalDir, dirs: GLOBAL_COMMAND_DIRS },
      { base: location.project.directory, dirs: PROJECT_COMMAND_DIRS },
    ];
    if (location.directory !== location.project.directory) {
      sources.push({ base: location.directory, dirs: PROJECT_COMMAND_DIRS });
    }
    const config = (await this.configs.get(location)).merged.command;
    const commands = new Map(BUILTIN_COMMANDS.map((command) => [command.name, command]));
    for (const [name, entry] of Object.entries(config)) commands.set(name, { name, ...entry });
    for (const command of await readCommands(sources)) commands.set(command.name, command);
    return [...commands.values()].sort((a, b) => a.name.localeCompare(b.name));
  }
}
