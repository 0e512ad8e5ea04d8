import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { RuntimeModule } from '../runtime/runtime.module';
import { SessionsModule } from '../sessions/sessions.module';
import { SessionHistoryController } from './session-history.controller';
import { SessionEventStreams } from './session-event-streams';
import { SessionHistoryService } from './session-history.service';

/** The v2 reads of a session's transcript (message, context, history, events), and its pending questions. */
@Module({
  imports: [SessionsModule, EventsModule, RuntimeModule],
  controllers: [SessionHistoryController],
  providers: [SessionHistoryService, SessionEventStreams],
})
export class SessionHistoryModule {}
