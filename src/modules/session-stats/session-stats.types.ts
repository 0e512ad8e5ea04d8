/** `SessionStats.Info` (reference §4.13). Money in USD, durations in ms. */
import type { ModelRef, Tokens } from '../sessions/session.types';

export type ToolsMode = 'none' | 'summary' | 'detail';

export interface ToolTotals {
  calls: number;
  succeeded: number;
  failed: number;
  unfinished: number;
}

export interface ToolUsage extends ToolTotals {
  name: string;
  durationP50?: number;
}

export type ToolsStats =
  | { mode: 'none' }
  | { mode: 'summary'; totals: ToolTotals }
  | { mode: 'detail'; totals: ToolTotals; usage: ToolUsage[] };

export interface ModelUsage {
  model: ModelRef;
  steps: number;
  tokens: Tokens;
  cost: number;
}

export interface SessionStatsInfo {
  range: { from: number; to: number };
  sessions: number;
  subagents: number;
  prompts: number;
  steps: number;
  tokens: Tokens;
  cost: number;
  tools: ToolsStats;
  activeDays: number;
  streak: number;
  activity: Array<{ date: string; steps: number }>;
  models: ModelUsage[];
}
