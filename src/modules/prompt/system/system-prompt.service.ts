import { Injectable } from '@nestjs/common';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Clock } from '@/common/clock';
import { AgentInfo } from '../../agents/agent.types';
import { LocationConfigService } from '../../location-config/location-config.service';
import { ResolvedLocation } from '../../locations/location.types';
import { findInstructionFiles, readInstructions } from './instruction-files';
import type { ProviderFamily } from '../../runtime/providers/model-family';
import { providerPrompt } from './provider-prompts';

/**
 * The system prompt of a step, in an order that stays the same from step to step and run to run (so providers
 * can cache it): the provider family's base prompt, the environment, the project's and the config's
 * instruction files, then the agent's own prompt.
 */
@Injectable()
export class SystemPromptService {
  constructor(
    private readonly configs: LocationConfigService,
    private readonly clock: Clock,
  ) {}

  async build(location: ResolvedLocation, agent: AgentInfo, family: ProviderFamily): Promise<string> {
    const config = await this.configs.get(location);
    const files = await findInstructionFiles({
      directory: location.directory,
      root: location.project.directory,
      configDir: this.configs.globalDir,
      patterns: config.merged.instructions,
    });
    const sections = [
      providerPrompt(family),
      await this.environment(location),
      ...(await readInstructions(files)),
    ];
    if (agent.system?.trim()) sections.push(agent.system.trim());
    return sections.join('\n\n');
  }

  private async environment(location: ResolvedLocation): Promise<string> {
    const git = await stat(join(location.project.directory, '.git')).then(
      () => true,
      () => false,
    );
    return [
      'Here is some useful information about the environment you are running in:',
      '<env>',
      `  Working directory: ${location.directory}`,
      `  Is directory a git repo: ${git ? 'yes' : 'no'}`,
      `  Platform: ${process.platform}`,
      `  Today's date: ${this.clock.date().toDateString()}`,
      '</env>',
    ].join('\n');
  }
}
