import { Module } from '@nestjs/common';
import { LocationsModule } from '../locations/locations.module';
import { PromptModule } from '../prompt/prompt.module';
import { SessionsModule } from '../sessions/sessions.module';
import { SessionHistoryController } from './session-history.controller';
import { SessionHistoryService } from './session-history.service';

/** The v2 reads of a session's transcript (message, context, history, events) and of a location's files. */
@Module({
  imports: [SessionsModule, LocationsModule, PromptModule],
  controllers: [SessionHistoryController],
  providers: [SessionHistoryService],
})
export class SessionHistoryModule {}
