import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { ProjectInfoEntity } from './project-info.entity';

/** The `project_info` table: what was set about each project, by project id. */
@Injectable()
export class ProjectInfoRepository {
  constructor(@InjectRepository(ProjectInfoEntity) private readonly rows: Repository<ProjectInfoEntity>) {}

  async get(id: string): Promise<ProjectInfoEntity | undefined> {
    return (await this.rows.findOneBy({ id })) ?? undefined;
  }

  /** Sets the given members (the others stay), creating the row if need be; answers the row as stored. */
  async upsert(
    id: string,
    set: Partial<Pick<ProjectInfoEntity, 'name' | 'icon' | 'commands'>>,
    now: number,
  ): Promise<ProjectInfoEntity> {
    await this.rows
      .createQueryBuilder()
      .insert()
      .values({ id, name: null, icon: null, commands: null, ...set, timeCreated: now, timeUpdated: now })
      .orUpdate([...Object.keys(set).map(snake), 'time_updated'], ['id'])
      .execute();
    return (await this.get(id))!;
  }
}

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
