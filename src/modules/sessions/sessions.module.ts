import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { LocationsModule } from '../locations/locations.module';
import { SessionsActivity } from './sessions-activity';
import { SessionsController } from './sessions.controller';
import { SessionsPager } from './sessions-pager';
import { SessionsRepository } from './sessions.repository';
import { SessionMessagesRepository } from './session-messages.repository';
import { SessionsService } from './sessions.service';

@Module({
  imports: [LocationsModule, AgentsModule],
  controllers: [SessionsController],
  providers: [
    SessionsService,
    SessionsPager,
    SessionsRepository,
    SessionMessagesRepository,
    SessionsActivity,
  ],
  exports: [SessionsService, SessionsActivity, SessionsPager],
})
export class SessionsModule {}
