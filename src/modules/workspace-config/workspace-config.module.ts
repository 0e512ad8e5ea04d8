import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { OpencodeWellKnownController } from './opencode-well-known.controller';
import { WorkspaceConfigController } from './workspace-config.controller';
import { WorkspaceConfigEntity } from './workspace-config.entity';
import { WorkspaceConfigService } from './workspace-config.service';
import { WorkspaceConfigRepository } from './workspace-config.repository';
import { WorkspacePolicies } from './workspace-policies';

/** The workspace config (V2) every client polls, and its admin writes. */
@Module({
  imports: [TypeOrmModule.forFeature([WorkspaceConfigEntity]), AuditModule],
  controllers: [WorkspaceConfigController, OpencodeWellKnownController],
  providers: [WorkspaceConfigService, WorkspacePolicies, WorkspaceConfigRepository],
  exports: [WorkspaceConfigService, WorkspacePolicies],
})
export class WorkspaceConfigModule {}
