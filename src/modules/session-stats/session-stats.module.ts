import { Module } from '@nestjs/common';
import { SessionsModule } from '../sessions/sessions.module';
import { SessionStatsController } from './session-stats.controller';
import { SessionStatsService } from './session-stats.service';

/** Usage statistics, from the usage queries of the sessions module (read only). */
@Module({
  imports: [SessionsModule],
  controllers: [SessionStatsController],
  providers: [SessionStatsService],
})
export class SessionStatsModule {}
