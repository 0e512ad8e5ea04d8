import { Injectable } from '@nestjs/common';
import { LocationConfigService } from '../../location-config/location-config.service';
import { ResolvedLocation } from '../../locations/location.types';
import { CommandInfo, GLOBAL_COMMAND_DIRS, PROJECT_COMMAND_DIRS, readCommands } from './command-files';
import { CommandNotFoundError } from './commands.errors';

/**
 * A location's command templates (the TUI's `/name` commands): markdown files in the global config dir, the
 * project root and the location, later ones overriding earlier ones by name. Read on each call: they are few
 * and small, and an edited file applies at once.
 */
@Injectable()
export class CommandsService {
  constructor(private readonly configs: LocationConfigService) {}

  list(location: ResolvedLocation): Promise<CommandInfo[]> {
    const sources = [
      { base: this.configs.globalDir, dirs: GLOBAL_COMMAND_DIRS },
      { base: location.project.directory, dirs: PROJECT_COMMAND_DIRS },
    ];
    if (location.directory !== location.project.directory) {
      sources.push({ base: location.directory, dirs: PROJECT_COMMAND_DIRS });
    }
    return readCommands(sources);
  }

  async get(location: ResolvedLocation, name: string): Promise<CommandInfo> {
    const found = (await this.list(location)).find((command) => command.name === name);
    if (!found) throw new CommandNotFoundError(name);
    return found;
  }
}
