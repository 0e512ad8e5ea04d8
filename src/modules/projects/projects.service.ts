import { Injectable } from '@nestjs/common';
import { Clock } from '@/common/clock';
import { ProjectInfoRepository } from './project-info.repository';

export interface ProjectInfo {
  name?: string;
  icon?: { url?: string; override?: string; color?: string };
  commands?: { start?: string };
  time: { created: number; updated: number };
}

export type ProjectInfoUpdate = Omit<ProjectInfo, 'time'>;

/** What a person set about a project: its name, icon and start-up command (opencode's `project.update`). */
@Injectable()
export class ProjectsService {
  constructor(
    private readonly rows: ProjectInfoRepository,
    private readonly clock: Clock,
  ) {}

  async info(id: string): Promise<ProjectInfo | undefined> {
    const row = await this.rows.get(id);
    if (!row) return undefined;
    return {
      ...(row.name !== null ? { name: row.name } : {}),
      ...(row.icon !== null ? { icon: row.icon } : {}),
      ...(row.commands !== null ? { commands: row.commands } : {}),
      time: { created: row.timeCreated, updated: row.timeUpdated },
    };
  }

  /** Sets what the update names (an icon or commands replace the former ones whole, as in opencode). */
  async update(id: string, update: ProjectInfoUpdate): Promise<ProjectInfo> {
    await this.rows.upsert(
      id,
      {
        ...(update.name !== undefined ? { name: update.name } : {}),
        ...(update.icon !== undefined ? { icon: update.icon } : {}),
        ...(update.commands !== undefined ? { commands: update.commands } : {}),
      },
      this.clock.now(),
    );
    return (await this.info(id))!;
  }
}
