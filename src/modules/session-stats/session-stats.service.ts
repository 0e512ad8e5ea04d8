import { Injectable } from '@nestjs/common';
import { Clock } from '@/common/clock';
import { InvalidRequestError } from '@/common/errors';
import { microCentsToDollars } from '@/common/money';
import { Tokens } from '../sessions/session.types';
import { ToolUsageRow, UsageDayRow, UsageRange, UsageStatsRepository } from './usage-stats.repository';
import { ModelUsage, SessionStatsInfo, ToolsMode, ToolsStats, ToolTotals } from './session-stats.types';

export interface StatsInput {
  from?: number;
  to?: number;
  project?: string;
  timezone?: string;
  tools?: ToolsMode;
}

const zero = (): Tokens => ({ input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } });

function add(tokens: Tokens, row: UsageDayRow): void {
  tokens.input += Number(row.tokens_input);
  tokens.output += Number(row.tokens_output);
  tokens.reasoning += Number(row.tokens_reasoning);
  tokens.cache.read += Number(row.tokens_cache_read);
  tokens.cache.write += Number(row.tokens_cache_write);
}

const total = (t: Tokens) => t.input + t.output + t.reasoning + t.cache.read + t.cache.write;

/** Counts (strings from PostgreSQL or numbers) with the unfinished calls worked out. */
function totals(row: {
  calls: string | number;
  succeeded: string | number;
  failed: string | number;
}): ToolTotals {
  const calls = Number(row.calls);
  const succeeded = Number(row.succeeded);
  const failed = Number(row.failed);
  return { calls, succeeded, failed, unfinished: calls - succeeded - failed };
}

/** `SessionStats.Info` over `[from, to)` (reference §7.9), aggregated by PostgreSQL. */
@Injectable()
export class SessionStatsService {
  private zones?: Promise<Set<string>>;

  constructor(
    private readonly usage: UsageStatsRepository,
    private readonly clock: Clock,
  ) {}

  async compute(input: StatsInput): Promise<SessionStatsInfo> {
    const timezone = input.timezone ?? 'UTC';
    if (!(await this.knownZones()).has(timezone))
      throw new InvalidRequestError(`Unknown time zone: ${timezone}`, 'timezone', 'Query');
    const to = input.to ?? this.clock.now();
    if (input.from !== undefined && input.from > to)
      throw new InvalidRequestError('from must not be after to', 'from', 'Query');
    const from = input.from ?? (await this.usage.earliest(input.project, to)) ?? to;
    const range: UsageRange = {
      from,
      to,
      timezone,
      ...(input.project !== undefined ? { project: input.project } : {}),
    };
    const mode = input.tools ?? 'summary';
    const [counts, rows, byName] = await Promise.all([
      this.usage.sessions(range),
      this.usage.byDay(range),
      mode === 'detail' ? this.usage.toolsByName(range) : Promise.resolve([]),
    ]);
    const tokens = zero();
    const calls = { calls: 0, succeeded: 0, failed: 0 };
    let prompts = 0;
    let steps = 0;
    let cost = 0;
    const days = new Map<string, number>();
    const models = new Map<string, ModelUsage & { micro: number }>();
    for (const row of rows) {
      prompts += Number(row.prompts);
      if (Number(row.steps) === 0) continue; // the day's prompts only
      steps += Number(row.steps);
      calls.calls += Number(row.tool_calls);
      calls.succeeded += Number(row.tool_succeeded);
      calls.failed += Number(row.tool_failed);
      cost += Number(row.cost);
      add(tokens, row);
      days.set(row.day, (days.get(row.day) ?? 0) + Number(row.steps));
      if (row.model === null) continue;
      const key = `${row.model.providerID}/${row.model.id}#${row.model.variant ?? ''}`;
      let usage = models.get(key);
      if (!usage)
        models.set(key, (usage = { model: row.model, steps: 0, tokens: zero(), cost: 0, micro: 0 }));
      usage.steps += Number(row.steps);
      usage.micro += Number(row.cost);
      add(usage.tokens, row);
    }
    return {
      range: { from, to },
      ...counts,
      prompts,
      steps,
      tokens,
      cost: microCentsToDollars(cost),
      tools: this.tools(mode, totals(calls), byName),
      activeDays: days.size,
      streak: rows[0]?.streak ?? 0,
      activity: [...days].map(([date, count]) => ({ date, steps: count })),
      models: [...models.values()]
        .sort((a, b) => total(b.tokens) - total(a.tokens))
        .map(({ micro, ...usage }) => ({ ...usage, cost: microCentsToDollars(micro) })),
    };
  }

  /** `none` leaves tools out; the totals come from the usage rollup; `detail` adds the per-name rows. */
  private tools(mode: ToolsMode, sum: ToolTotals, usage: ToolUsageRow[]): ToolsStats {
    if (mode === 'none') return { mode };
    if (mode === 'summary') return { mode, totals: sum };
    return {
      mode,
      totals: sum,
      usage: usage.map((row) => ({
        name: row.name,
        ...totals(row),
        ...(row.duration_p50 === null ? {} : { durationP50: Number(row.duration_p50) }),
      })),
    };
  }

  /** PostgreSQL's IANA names, read once. */
  private knownZones(): Promise<Set<string>> {
    this.zones ??= this.usage.timeZones().then((names) => new Set(names));
    return this.zones;
  }
}
