import { Inject, Injectable, Logger } from '@nestjs/common';
import { tmpdir } from 'node:os';
import { EventsPublisher } from '@/common/events';
import { appConfig, AppConfig } from '@/config/app.config';
import { AgentConfig, ConfigProblem, Ruleset } from '../location-config/config.types';
import { LocationConfigService } from '../location-config/location-config.service';
import { LocationCache } from '../locations/location-cache';
import { ResolvedLocation } from '../locations/location.types';
import { LocationsService } from '../locations/locations.service';
import { PluginsService } from '../plugins/plugins.service';
import { AgentInfo } from './agent.types';
import { AgentNotFoundError } from './agents.errors';
import { GLOBAL_AGENT_DIRS, PROJECT_AGENT_DIRS, readAgentFiles } from './agent-files';
import { BuiltinPaths, builtinAgents, DEFAULT_AGENT_ID, emptyAgent } from './builtin-agents';

/** Agents a plugin adds, in the order its plugins are listed. */
export interface AgentSource {
  id: string;
  config: AgentConfig;
}

interface Draft {
  info: AgentInfo;
  disabled: boolean;
  /** The custom rules of overrides, appended after the location's own `permissions`. */
  custom: Ruleset;
}

/**
 * The agents of a location: the built-ins, then plugin agents, then global and project agents (markdown files,
 * then config), later ones overriding earlier ones by id; `disabled: true` removes one. Cached per directory until
 * `forget`; a rebuild that changes the set publishes `agent.updated`.
 */
@Injectable()
export class AgentsService {
  private readonly logger = new Logger(AgentsService.name);
  private readonly cache: LocationCache<Map<string, AgentInfo>>;
  private readonly paths: BuiltinPaths;

  constructor(
    private readonly configs: LocationConfigService,
    private readonly plugins: PluginsService,
    private readonly events: EventsPublisher,
    locations: LocationsService,
    @Inject(appConfig.KEY) app: AppConfig,
  ) {
    this.paths = { dataDir: app.dataDir, tmpDir: tmpdir() };
    this.cache = locations.cache({
      build: (location) => this.build(location),
      onRebuilt: (location, before, after) => {
        if (JSON.stringify([...before.values()]) !== JSON.stringify([...after.values()])) {
          this.events.publish('agent.updated', {}, location);
        }
      },
    });
  }

  async list(location: ResolvedLocation): Promise<AgentInfo[]> {
    return [...(await this.index(location)).values()];
  }

  /** One agent; unknown or disabled ids are `AgentNotFoundError` (sessions use this to validate a switch). */
  async get(location: ResolvedLocation, agentID: string): Promise<AgentInfo> {
    const agent = (await this.index(location)).get(agentID);
    if (!agent) throw new AgentNotFoundError(agentID);
    return agent;
  }

  /** `build`, or the first visible primary agent when `build` is disabled. */
  async defaultAgent(location: ResolvedLocation): Promise<AgentInfo> {
    const agents = await this.index(location);
    const fallback = [...agents.values()].find((a) => a.mode !== 'subagent' && !a.hidden);
    const agent = agents.get(DEFAULT_AGENT_ID) ?? fallback;
    if (!agent) throw new AgentNotFoundError(DEFAULT_AGENT_ID);
    return agent;
  }

  /** Drops the cached agents; the next read rebuilds them and announces a change. */
  forget(directory?: string): void {
    this.cache.forget(directory);
  }

  private index(location: ResolvedLocation): Promise<Map<string, AgentInfo>> {
    return this.cache.get(location);
  }

  private async build(location: ResolvedLocation): Promise<Map<string, AgentInfo>> {
    const config = await this.configs.get(location);
    const problems: ConfigProblem[] = [];
    const sources: AgentSource[] = await this.plugins.agents(location);
    for (const scope of ['global', 'project'] as const) {
      const files =
        scope === 'global'
          ? await readAgentFiles(this.configs.globalDir, GLOBAL_AGENT_DIRS, problems)
          : await readAgentFiles(location.project.directory, PROJECT_AGENT_DIRS, problems);
      sources.push(...files);
      for (const layer of config.layers.filter((l) => l.scope === scope)) {
        sources.push(...Object.entries(layer.config.agents).map(([id, agent]) => ({ id, config: agent })));
      }
    }
    for (const problem of problems) {
      this.logger.warn(
        `Agent file ${problem.file}${problem.path ? ` at ${problem.path}` : ''}: ${problem.message}`,
      );
    }
    const drafts = new Map<string, Draft>();
    for (const agent of builtinAgents(this.paths))
      drafts.set(agent.id, { info: agent, disabled: false, custom: [] });
    for (const source of sources) this.apply(drafts, source);
    const agents = new Map<string, AgentInfo>();
    for (const [id, draft] of drafts) {
      if (draft.disabled) continue;
      const permissions = [...draft.info.permissions, ...config.merged.permissions, ...draft.custom];
      agents.set(id, { ...draft.info, permissions });
    }
    return agents;
  }

  private apply(drafts: Map<string, Draft>, { id, config }: AgentSource): void {
    let draft = drafts.get(id);
    if (!draft) {
      draft = { info: { ...emptyAgent(id, this.paths), name: id }, disabled: false, custom: [] };
      drafts.set(id, draft);
    }
    const info = draft.info;
    const { disabled, permissions, request, ...fields } = config;
    Object.assign(info, fields);
    if (request) {
      info.request = {
        settings: info.request.settings,
        headers: { ...info.request.headers, ...request.headers },
        body: { ...info.request.body, ...request.body },
      };
    }
    if (disabled !== undefined) draft.disabled = disabled;
    if (permissions) draft.custom.push(...permissions);
  }
}
