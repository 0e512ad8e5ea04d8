import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { poolQuery } from '@/database/pool-query';
import { Transaction } from '@/database/transaction';

/** What releasing dead processes' holds did: how many leases ended and the member holds given back (micro-cents). */
export interface Released {
  nodes: number;
  released: bigint;
}

/**
 * Ends the leases the `dead` CTE deletes and gives their holds back to members and workspaces; the streams they
 * were serving go to the request log as `cut`, with what they had billed (request_log_stream). The DELETE of the
 * node rows decides which process releases them: a second one finds them gone.
 */
function releaseHolds(dead: string): string {
  return `WITH dead AS (${dead} RETURNING id),
     holds AS (
       DELETE FROM budget_hold h USING dead WHERE h.node_id = dead.id
       RETURNING h.workspace_id, h.member_id, h.month, h.member_held_micro_cents AS member_held,
                 h.workspace_held_micro_cents AS workspace_held
     ), members AS (
       UPDATE member_spend s SET held_micro_cents = GREATEST(0, s.held_micro_cents - x.held)
         FROM (SELECT workspace_id, member_id, month, sum(member_held) AS held FROM holds GROUP BY 1, 2, 3) x
        WHERE s.workspace_id = x.workspace_id AND s.member_id = x.member_id AND s.month = x.month
     ), workspaces AS (
       UPDATE workspace_spend s SET held_micro_cents = GREATEST(0, s.held_micro_cents - x.held)
         FROM (SELECT workspace_id, month, sum(workspace_held) AS held FROM holds GROUP BY 1, 2) x
        WHERE s.workspace_id = x.workspace_id AND s.month = x.month
     ), streams AS (
       DELETE FROM request_log_stream r USING dead WHERE r.node_id = dead.id RETURNING r.*
     ), cut AS (
       INSERT INTO request_log (id, workspace_id, member_id, key_id, request_id, route, model, served_by, status,
                                outcome, input_tokens, output_tokens, cost_micro_cents, duration_ms, ttfb_ms, created_at)
       SELECT id, workspace_id, member_id, key_id, request_id, route, model, served_by, status, 'cut', input_tokens,
              output_tokens, cost_micro_cents,
              LEAST(GREATEST(0, extract(epoch FROM updated_at - created_at) * 1000), 2147483647)::int, ttfb_ms,
              created_at
         FROM streams
       ON CONFLICT (id) DO NOTHING
     )
     SELECT (SELECT count(*) FROM dead) AS nodes, (SELECT coalesce(sum(member_held), 0) FROM holds) AS released`;
}

/** Every process whose lease ran out ($1 this process, $2 LEASE_MS). */
const RELEASE_EXPIRED = releaseHolds(
  'DELETE FROM gateway_node WHERE heartbeat_at < now() - make_interval(secs => $2::int / 1000.0) AND id <> $1',
);

/** One process known to be gone ($1), whatever its lease says: its journal is being written (UsageLedger). */
const RELEASE_NODE = releaseHolds('DELETE FROM gateway_node WHERE id = $1');

/**
 * The gateway processes' leases (`gateway_node`) and the budget holds each one took (`budget_hold`): renewing a
 * lease, ending it, and giving the holds of dead processes back to `member_spend` and `workspace_spend`.
 */
@Injectable()
export class GatewayNodesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Creates or renews the process's lease (heartbeat now). */
  async renew(nodeId: string): Promise<void> {
    await poolQuery(
      this.db,
      `INSERT INTO gateway_node (id, started_at, heartbeat_at) VALUES ($1, now(), now())
       ON CONFLICT (id) DO UPDATE SET heartbeat_at = now()`,
      [nodeId],
    );
  }

  /** Removes the process's holds, then its lease. */
  async end(nodeId: string): Promise<void> {
    await poolQuery(this.db, 'DELETE FROM budget_hold WHERE node_id = $1', [nodeId]);
    await poolQuery(this.db, 'DELETE FROM gateway_node WHERE id = $1', [nodeId]);
  }

  /** Ends the leases of every other process that has not renewed within `leaseMs` and gives their holds back. */
  async releaseExpired(nodeId: string, leaseMs: number): Promise<Released> {
    const [row] = await poolQuery<{ nodes: string; released: string }>(this.db, RELEASE_EXPIRED, [
      nodeId,
      leaseMs,
    ]);
    return { nodes: Number(row.nodes), released: BigInt(row.released) };
  }

  /** Ends the lease of a process known to be gone and gives its holds back, in `tx`. */
  async releaseNode(tx: Transaction, nodeId: string): Promise<void> {
    await tx.query(RELEASE_NODE, [nodeId]);
  }
}
