import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { consoleAccessConfig } from '../console-access/console-access.config';
import { KeysModule } from '../keys/keys.module';
import { MailModule } from '../mail/mail.module';
import { InviteEntity } from './invite.entity';
import { InvitesController } from './invites.controller';
import { InvitesRepository } from './invites.repository';
import { InvitesService } from './invites.service';
import { MembersController } from './members.controller';
import { MembersService } from './members.service';
import { MembershipEntity } from './membership.entity';
import { MembershipsRepository } from './memberships.repository';
import { OrgsController } from './orgs.controller';
import { WorkspaceEntity } from './workspace.entity';
import { WorkspacesRepository } from './workspaces.repository';
import { WorkspacesService } from './workspaces.service';

/** Workspaces, their members and roles, and invitations. */
@Module({
  imports: [
    ConfigModule.forFeature(consoleAccessConfig),
    TypeOrmModule.forFeature([WorkspaceEntity, MembershipEntity, InviteEntity]),
    AuditModule,
    KeysModule,
    MailModule,
  ],
  controllers: [OrgsController, MembersController, InvitesController],
  providers: [
    WorkspacesService,
    WorkspacesRepository,
    MembersService,
    MembershipsRepository,
    InvitesService,
    InvitesRepository,
  ],
  exports: [WorkspacesService, MembersService, InvitesService],
})
export class WorkspacesModule {}
