import { Module } from '@nestjs/common';
import { SessionStatsController } from './session-stats.controller';
import { SessionStatsRepository } from './session-stats.repository';
import { SessionStatsService } from './session-stats.service';

/** Usage statistics, computed in SQL over the session tables (read only). */
@Module({
  controllers: [SessionStatsController],
  providers: [SessionStatsService, SessionStatsRepository],
})
export class SessionStatsModule {}
