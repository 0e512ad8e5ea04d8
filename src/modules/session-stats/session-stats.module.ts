import { Module } from '@nestjs/common';
import { SessionsModule } from '../sessions/sessions.module';
import { SessionStatsController } from './session-stats.controller';
import { SessionStatsService } from './session-stats.service';
import { UsageStatsRepository } from './usage-stats.repository';

/** Usage statistics, read from the session tables through its own read model (read only). */
@Module({
  imports: [SessionsModule],
  controllers: [SessionStatsController],
  providers: [SessionStatsService, UsageStatsRepository],
})
export class SessionStatsModule {}
