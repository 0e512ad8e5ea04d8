import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { GatewayNodesRepository, Released } from './gateway-nodes.repository';

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

  constructor(private readonly nodes: GatewayNodesRepository) {}

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
    await this.nodes.end(this.nodeId);
  }

  /** Renews the lease and releases the holds of processes whose leases ran out; returns what was released. */
  async beat(): Promise<Released> {
    try {
      await this.renew();
      return await this.releaseExpired();
    } catch (error) {
      this.logger.warn(`budget hold lease not renewed, trying again: ${(error as Error).message}`);
      return { nodes: 0, released: 0n };
    }
  }

  private renew(): Promise<void> {
    return this.nodes.renew(this.nodeId);
  }

  private async releaseExpired(): Promise<Released> {
    const result = await this.nodes.releaseExpired(this.nodeId, LEASE_MS);
    if (result.nodes > 0)
      this.logger.warn(
        `released ${result.released} micro-cents of budget holds of ${result.nodes} gateway process(es) that stopped renewing their lease`,
      );
    return result;
  }
}
