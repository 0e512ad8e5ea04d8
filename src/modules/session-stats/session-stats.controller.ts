import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { SessionStatsResponseDto } from './dto/session-stats.dto';
import { SessionStatsQueryDto } from './dto/session-stats-query.dto';
import { SessionStatsService } from './session-stats.service';
import { SessionStatsInfo } from './session-stats.types';

@ApiTags('session')
@Controller('api/experimental/session')
export class SessionStatsController {
  constructor(private readonly service: SessionStatsService) {}

  @Get('stats')
  @ApiOperation({
    operationId: 'experimental.session.stats',
    summary: 'Sessions, prompts, steps, tokens, cost, daily activity, models and tools over [from, to)',
  })
  @ApiOkResponse({ type: SessionStatsResponseDto })
  async stats(@Query() query: SessionStatsQueryDto): Promise<{ data: SessionStatsInfo }> {
    return {
      data: await this.service.compute({
        from: query.from === undefined ? undefined : Number(query.from),
        to: query.to === undefined ? undefined : Number(query.to),
        project: query.project,
        timezone: query.timezone,
        tools: query.tools,
      }),
    };
  }
}
