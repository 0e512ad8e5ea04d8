import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { poolQuery } from '@/database/pool-query';

/** How often a process renews its lease and looks for processes that stopped renewing theirs. */
export const HEARTBEAT_MS = 5_000;
/** A process whose lease is older than this is taken for dead: its holds are released (within 30 s in all). */
export const LEASE_MS = 15_000;

/**
 * This process's lease on the budget holds it takes (table `gateway_node`, renewed every HEARTBEAT_MS). Every
 * hold is recorded against the process that took it (`budget_hold`); when a process stops renewing (killed, its
 * machine gone), any live one gives its holds back to the members and workspaces in one statement, exactly once.
 * What its streams had produced was recorded as they ran (UsageLedger.watch), so it stays billed.
 */
@Injectable()
export class HoldLease implements OnApplicationBootstrap {
  readonly nodeId = `node_${randomBytes(8).toString('hex')}`;
  private readonly logger = new Logger(HoldLease.name);
  private timer?: NodeJS.Timeout;
  private beating = Promise.resolve();

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.renew();
    this.timer = setInterval(() => {
      this.beating = this.beating.then(async () => void (await this.beat()));
    }, HEARTBEAT_MS);
    this.timer.unref();
  }

  /** Ends the lease once this process's holds are settled (the ledger calls it after its last write). */
  async end(): Promise<void> {
    clearInterval(this.timer);
    await this.beating;
    await poolQuery(this.db, 'DELETE FROM budget_hold WHERE node_id = $1', [this.nodeId]);
    await poolQuery(this.db, 'DELETE FROM gateway_node WHERE id = $1', [this.nodeId]);
  }

  /** Renews the lease and releases the holds of processes whose leases ran out; returns what was released. */
  async beat(): Promise<{ nodes: number; released: bigint }> {
    try {
      await this.renew();
      return await this.releaseExpired();
    } catch (error) {
      this.logger.warn(`budget hold lease not renewed, trying again: ${(error as Error).message}`);
      return { nodes: 0, released: 0n };
    }
  }

  private async renew(): Promise<void> {
    await poolQuery(
      this.db,
      `INSERT INTO gateway_node (id, started_at, heartbeat_at) VALUES ($1, now(), now())
       ON CONFLICT (id) DO UPDATE SET heartbeat_at = now()`,
      [this.nodeId],
    );
  }

  private async releaseExpired(): Promise<{ nodes: number; released: bigint }> {
    const [row] = await poolQuery<{ nodes: string; released: string }>(this.db, RELEASE_EXPIRED, [
      this.nodeId,
      LEASE_MS,
    ]);
    const result = { nodes: Number(row.nodes), released: BigInt(row.released) };
    if (result.nodes > 0)
      this.logger.warn(
        `released ${result.released} micro-cents of budget holds of ${result.nodes} gateway process(es) that stopped renewing their lease`,
      );
    return result;
  }
}

/**
 * Ends the leases the `dead` CTE deletes and gives their holds back to members and workspaces. The DELETE of the
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
     )
     SELECT (SELECT count(*) FROM dead) AS nodes, (SELECT coalesce(sum(member_held), 0) FROM holds) AS released`;
}

/** Every process whose lease ran out ($1 this process, $2 LEASE_MS). */
const RELEASE_EXPIRED = releaseHolds(
  'DELETE FROM gateway_node WHERE heartbeat_at < now() - make_interval(secs => $2::int / 1000.0) AND id <> $1',
);

/** One process known to be gone ($1), whatever its lease says: its journal is being written (UsageLedger). */
export const RELEASE_NODE = releaseHolds('DELETE FROM gateway_node WHERE id = $1');
