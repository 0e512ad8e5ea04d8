import { Module } from '@nestjs/common';
import { LocationsModule } from '../locations/locations.module';
import { SessionAgents } from './session-agents';
import { SessionsActivity } from './sessions-activity.service';
import { SessionsController } from './sessions.controller';
import { SessionsPager } from './sessions-pager.service';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';

@Module({
  imports: [LocationsModule],
  controllers: [SessionsController],
  providers: [SessionsService, SessionsPager, SessionsRepository, SessionsActivity, SessionAgents],
  exports: [SessionsService, SessionsActivity, SessionAgents],
})
export class SessionsModule {}
