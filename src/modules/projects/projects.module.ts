import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProjectInfoEntity } from './project-info.entity';
import { ProjectInfoRepository } from './project-info.repository';
import { ProjectsService } from './projects.service';

/** What people set about their projects (name, icon), which opencode's clients show. */
@Module({
  imports: [TypeOrmModule.forFeature([ProjectInfoEntity])],
  providers: [ProjectInfoRepository, ProjectsService],
  exports: [ProjectsService],
})
export class ProjectsModule {}
