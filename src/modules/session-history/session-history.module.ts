import { Module } from '@nestjs/common';
import { LocationsModule } from '../locations/locations.module';
import { SessionsModule } from '../sessions/sessions.module';
import { SessionHistoryController } from './session-history.controller';
import { SessionHistoryService } from './session-history.service';

/** The v2 reads of a session's transcript (message, context, history, events) and of a location's files. */
@Module({
  imports: [SessionsModule, LocationsModule],
  controllers: [SessionHistoryController],
  providers: [SessionHistoryService],
})
export class SessionHistoryModule {}
