import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { LocationsModule } from '../locations/locations.module';
import { PromptModule } from '../prompt/prompt.module';
import { SessionsModule } from '../sessions/sessions.module';
import { SessionHistoryController } from './session-history.controller';
import { SessionEventStreams } from './session-event-streams';
import { SessionHistoryService } from './session-history.service';

/** The v2 reads of a session's transcript (message, context, history, events) and of a location's files. */
@Module({
  imports: [SessionsModule, LocationsModule, PromptModule, EventsModule],
  controllers: [SessionHistoryController],
  providers: [SessionHistoryService, SessionEventStreams],
})
export class SessionHistoryModule {}
