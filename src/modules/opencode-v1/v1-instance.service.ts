import { Injectable } from '@nestjs/common';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { EventsPublisher } from '@/common/events';
import { AgentsService } from '../agents/agents.service';
import { LocationsService } from '../locations/locations.service';
import { ProjectInfoUpdate, ProjectsService } from '../projects/projects.service';
import { ProvidersService } from '../runtime/providers/providers.service';
import { ProjectNotFoundError } from './v1-project.errors';
import './v1-project.events';
import { v1Agent, v1ConfigProviders, v1Providers, V1_VERSION } from './v1-shapes';

/** Entries of /etc/shells no one can work in. */
const NOT_SHELLS = new Set(['nologin', 'false', 'git-shell']);

/** What v1 clients read about the instance at a directory: paths, project, config, providers, agents. */
@Injectable()
export class V1InstanceService {
  constructor(
    private readonly locations: LocationsService,
    private readonly agents: AgentsService,
    private readonly providers: ProvidersService,
    private readonly projects: ProjectsService,
    private readonly events: EventsPublisher,
  ) {}

  readonly version = V1_VERSION;

  async path(directory?: string) {
    const location = await this.locations.resolve(directory);
    const home = homedir();
    return {
      home,
      state: join(home, '.local', 'state', 'outpost'),
      config: join(home, '.config', 'outpost'),
      worktree: location.project.directory,
      directory: location.directory,
    };
  }

  /** `GET /pty/shells`: /etc/shells (unique, existing), else opencode's three defaults. */
  async shells(): Promise<Array<{ path: string; name: string; acceptable: boolean }>> {
    const listed = await readFile('/etc/shells', 'utf8').catch(() => '');
    const paths = listed
      ? [...new Set(listed.split('\n').map((line) => line.trim()))].filter((l) => l && !l.startsWith('#'))
      : ['/bin/bash', '/bin/zsh', '/bin/sh'];
    const present = paths.filter((path) => existsSync(path));
    return present.map((path) => ({
      path,
      name: basename(path).toLowerCase(),
      acceptable: !NOT_SHELLS.has(basename(path).toLowerCase()),
    }));
  }

  async project(directory?: string) {
    const location = await this.locations.resolve(directory);
    const vcs = (await this.branch(location.project.directory)) === undefined ? {} : { vcs: 'git' };
    const info = await this.projects.info(location.project.id);
    return {
      id: location.project.id,
      worktree: location.project.directory,
      ...vcs,
      ...(info?.name !== undefined ? { name: info.name } : {}),
      ...(info?.icon ? { icon: info.icon } : {}),
      ...(info?.commands ? { commands: info.commands } : {}),
      time: info?.time ?? { created: 0, updated: 0 },
      sandboxes: [],
    };
  }

  /**
   * `PATCH /project/{projectID}` (`project.update`): the name, icon or start-up command of the project at the
   * directory (Outpost knows a project by its directory; another id is a 404). Publishes `project.updated`.
   */
  async updateProject(projectID: string, update: ProjectInfoUpdate, directory?: string) {
    const location = await this.locations.resolve(directory);
    if (location.project.id !== projectID) throw new ProjectNotFoundError(projectID);
    await this.projects.update(projectID, update);
    const project = await this.project(directory);
    this.events.publish('project.updated', project, { directory: location.directory });
    return project;
  }

  async vcs(directory?: string) {
    const location = await this.locations.resolve(directory);
    const branch = await this.branch(location.project.directory);
    return branch === undefined ? {} : { branch, default_branch: null };
  }

  async config(directory?: string) {
    const registry = await this.providers.forLocation(await this.locations.resolve(directory));
    const model = registry.first();
    return {
      $schema: 'https://opencode.ai/config.json',
      ...(model ? { model: `${model.providerID}/${model.id}` } : {}),
      provider: v1ConfigProviders(registry.configs()),
      agent: {},
      command: {},
      mode: {},
      plugin: [],
    };
  }

  async configProviders(directory?: string) {
    const registry = await this.providers.forLocation(await this.locations.resolve(directory));
    const { list, defaults } = v1Providers(registry.configs(), registry.first());
    return { providers: list, default: defaults };
  }

  async providerList(directory?: string) {
    const registry = await this.providers.forLocation(await this.locations.resolve(directory));
    const { list, defaults } = v1Providers(registry.configs(), registry.first());
    return { all: list, default: defaults, connected: list.map((provider) => provider.id) };
  }

  async agentList(directory?: string) {
    const location = await this.locations.resolve(directory);
    return (await this.agents.list(location)).map(v1Agent);
  }

  /** The checked-out branch of a git worktree, from `.git/HEAD` (undefined outside git). */
  private async branch(worktree: string): Promise<string | undefined> {
    const head = await readFile(join(worktree, '.git', 'HEAD'), 'utf8').catch(() => undefined);
    if (head === undefined) return undefined;
    const ref = /^ref: refs\/heads\/(.+)$/m.exec(head);
    return ref ? ref[1].trim() : head.trim().slice(0, 12);
  }
}
