import { Injectable } from '@nestjs/common';
import { LocationConfigService } from '../../location-config/location-config.service';
import { ResolvedLocation } from '../../locations/location.types';
import { McpService } from '../../mcp/mcp.service';
import { CommandInfo, GLOBAL_COMMAND_DIRS, PROJECT_COMMAND_DIRS, readCommands } from './command-files';
import { CommandNotFoundError } from './commands.errors';

/**
 * A location's command templates (the TUI's `/name` commands): markdown files in the global config dir, the
 * project root and the location, later ones overriding earlier ones by name, then the prompts of its MCP servers
 * (`<server>:<prompt>`). Read on each call: they are few and small, and an edited file applies at once.
 */
@Injectable()
export class CommandsService {
  constructor(
    private readonly configs: LocationConfigService,
    private readonly mcp: McpService,
  ) {}

  async list(location: ResolvedLocation): Promise<CommandInfo[]> {
    const files = await this.files(location);
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
    const found = (await this.files(location)).find((command) => command.name === name);
    if (found) return found;
    const prompt = (await this.mcp.prompts(location)).find((p) => p.command === name);
    if (!prompt) throw new CommandNotFoundError(name);
    const description = prompt.description ? { description: prompt.description } : {};
    return { name, ...description, template: await prompt.template(), source: 'mcp' };
  }

  private files(location: ResolvedLocation): Promise<CommandInfo[]> {
    const sources = [
      { base: this.configs.globalDir, dirs: GLOBAL_COMMAND_DIRS },
      { base: location.project.directory, dirs: PROJECT_COMMAND_DIRS },
    ];
    if (location.directory !== location.project.directory) {
      sources.push({ base: location.directory, dirs: PROJECT_COMMAND_DIRS });
    }
    return readCommands(sources);
  }
}
