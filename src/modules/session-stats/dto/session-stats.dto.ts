import { ModelRefDto } from '../../agents/dto/agent-info.dto';
import { TokensDto } from '../../sessions/dto/session-info.dto';

export class StatsRangeDto {
  /** Epoch ms, inclusive. */
  from!: number;
  /** Epoch ms, exclusive. */
  to!: number;
}

export class ToolTotalsDto {
  calls!: number;
  succeeded!: number;
  failed!: number;
  unfinished!: number;
}

export class ToolUsageDto extends ToolTotalsDto {
  name!: string;
  /** Median duration in ms. */
  durationP50?: number;
}

export class ToolsStatsDto {
  mode!: 'none' | 'summary' | 'detail';
  /** summary, detail */
  totals?: ToolTotalsDto;
  /** detail: per tool. */
  usage?: ToolUsageDto[];
}

export class ActivityDayDto {
  /** `YYYY-MM-DD` in the requested time zone. */
  date!: string;
  steps!: number;
}

export class ModelUsageDto {
  model!: ModelRefDto;
  steps!: number;
  tokens!: TokensDto;
  /** USD */
  cost!: number;
}

/** `SessionStats.Info`: money in USD, durations in ms. */
export class SessionStatsDto {
  range!: StatsRangeDto;
  sessions!: number;
  subagents!: number;
  prompts!: number;
  steps!: number;
  tokens!: TokensDto;
  cost!: number;
  tools!: ToolsStatsDto;
  activeDays!: number;
  streak!: number;
  activity!: ActivityDayDto[];
  models!: ModelUsageDto[];
}

export class SessionStatsResponseDto {
  data!: SessionStatsDto;
}
