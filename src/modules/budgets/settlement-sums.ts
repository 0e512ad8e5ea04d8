import { utcMonth } from '@/common/money';
import type { UsageBatch } from './usage.repository';
import type { Settlement } from './usage-journal';

/** The most an `integer` column holds: a row that would pass it in tokens starts another. */
const MAX_TOKENS = 2 ** 31 - 1;

interface Spend {
  month: number;
  spent: bigint;
  released: bigint;
  /** Of a member's entry: what the workspace's row held for their calls (this process's `budget_hold`). */
  workspaceReleased: bigint;
}

/** A usage row being summed: `n` requests, their tokens and cost, `at` the latest settlement (epoch ms). */
interface UsageRow {
  w: string;
  m: string;
  k: string | null;
  model: string;
  n: number;
  i: number;
  o: number;
  cr: number;
  cw: number;
  c: bigint;
  at: number;
}

/** A usage row as the batch statement reads it (`json_to_recordset`): cost and time as text. */
export type UsageRowJson = Omit<UsageRow, 'c' | 'at'> & { c: string; at: string };

const byKey = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

const day = (month: number) => new Date(month).toISOString().slice(0, 10);

/**
 * Settlements summed as they come, for one statement (UsageRepository.writeBatch): usage rows, one per member, key
 * and model for each second (a busy key writes a row a second instead of a row a request: the database load of a
 * spend row per request is what LiteLLM's users complain of, and reports by day, member, key or model add up the
 * same); each member's, key's and workspace's spend in the newest month it saw (a row of an older month stays in
 * `usage` without touching the newer month's spend); every hold released. Summed at once rather than kept as a
 * list until the batch is written, so a busy gateway holds a few sums between writes, not thousands of records.
 */
export class SettlementSums {
  /** Settlements added. */
  count = 0;
  /** The journal's sequence number of the last one. */
  lastSeq = 0;
  private readonly open = new Map<string, UsageRow>();
  private readonly rows: UsageRow[] = [];
  private readonly members = new Map<string, Spend>();
  private readonly workspaces = new Map<string, Spend>();
  /** The month the last settlement fell in, [start, next) in epoch ms. */
  private month = { start: 0, next: 0 };

  add({ usage, held, workspaceHeld, keyHeld, at, requests }: Settlement, seq = 0): void {
    this.count++;
    this.lastSeq = seq;
    const month = this.monthOf(at);
    const cost = usage.costMicroCents;
    spend(this.members, `${usage.workspaceId}\n${usage.memberId}`, month, cost, held, workspaceHeld);
    // A key's spend beside its member's, under the key's id: what its own budget (KeyBudgets) is held to.
    if (usage.keyId) spend(this.members, `${usage.workspaceId}\n${usage.keyId}`, month, cost, keyHeld);
    spend(this.workspaces, usage.workspaceId, month, cost, workspaceHeld);
    const cacheRead = usage.cacheReadTokens ?? 0;
    const cacheWrite = usage.cacheWriteTokens ?? 0;
    const group = `${usage.workspaceId}\n${usage.memberId}\n${usage.keyId ?? ''}\n${usage.model}\n${Math.floor(at / 1000)}`;
    let row = this.open.get(group);
    if (
      !row ||
      row.i + usage.inputTokens > MAX_TOKENS ||
      row.o + usage.outputTokens > MAX_TOKENS ||
      row.cr + cacheRead > MAX_TOKENS ||
      row.cw + cacheWrite > MAX_TOKENS
    ) {
      const { workspaceId: w, memberId: m, keyId, model } = usage;
      row = { w, m, k: keyId ?? null, model, n: 0, i: 0, o: 0, cr: 0, cw: 0, c: 0n, at };
      this.open.set(group, row);
      this.rows.push(row);
    }
    row.n += requests;
    row.i += usage.inputTokens;
    row.o += usage.outputTokens;
    row.cr += cacheRead;
    row.cw += cacheWrite;
    row.c += cost;
    if (at > row.at) row.at = at;
  }

  private monthOf(at: number): number {
    if (at < this.month.start || at >= this.month.next) {
      const { start, next } = utcMonth(at);
      this.month = { start: start.getTime(), next: next.getTime() };
    }
    return this.month.start;
  }

  /** The usage rows as the statement reads them. */
  usageRows(): UsageRowJson[] {
    return this.rows.map((row) => ({ ...row, c: row.c.toString(), at: new Date(row.at).toISOString() }));
  }

  /**
   * The statement's parameters. Spend rows in one order on every node: two nodes' batches lock the same spend rows,
   * and in their own orders they could each hold a row the other waits for (a deadlock, found after a second, and
   * a batch retried).
   */
  statement(nodeId: string): UsageBatch {
    return {
      // One JSON text: pg would format ten arrays element by element (bench/gateway's profile).
      rows: JSON.stringify(this.usageRows()),
      members: [...this.members].sort(byKey).map(([key, entry]) => {
        const [workspaceId, memberId] = key.split('\n');
        return {
          workspaceId,
          memberId,
          month: day(entry.month),
          spent: entry.spent.toString(),
          released: entry.released.toString(),
          workspaceReleased: entry.workspaceReleased.toString(),
        };
      }),
      workspaces: [...this.workspaces].sort(byKey).map(([workspaceId, entry]) => ({
        workspaceId,
        month: day(entry.month),
        spent: entry.spent.toString(),
        released: entry.released.toString(),
      })),
      nodeId,
      writtenSeq: this.lastSeq,
    };
  }
}

/** Adds a settlement to a member's or workspace's total: spend of the newest month only, every hold released. */
function spend(
  totals: Map<string, Spend>,
  key: string,
  month: number,
  cost: bigint,
  released: bigint,
  workspaceReleased = 0n,
): void {
  const entry = totals.get(key);
  if (!entry) {
    totals.set(key, { month, spent: cost, released, workspaceReleased });
    return;
  }
  if (month > entry.month) Object.assign(entry, { month, spent: 0n });
  if (month === entry.month) entry.spent += cost;
  entry.released += released;
  entry.workspaceReleased += workspaceReleased;
}

/** A list of settlements as usage rows (SettlementSums). */
export function usageRows(settlements: Settlement[]): UsageRowJson[] {
  const sums = new SettlementSums();
  for (const settlement of settlements) sums.add(settlement);
  return sums.usageRows();
}
