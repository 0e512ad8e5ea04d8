import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { Clock } from '@/common/clock';
import { ulidId } from '@/common/ids';
import { Transaction } from '@/database/transaction';
import { DrainsRepository } from './drains.repository';
import { promptConfig, PromptConfig } from './prompt.config';

/**
 * One claim this process holds. `expires` is on this process's monotonic clock (`sinceStart`), taken before the
 * statement that set the lease: the database's expiry, on its own clock, is never earlier.
 */
interface Lease {
  expires: number;
}

/** Milliseconds on a clock that only moves forward: a change of the wall clock cannot stretch a lease. */
const sinceStart = () => performance.now();

/**
 * This process's claims on drains. The process takes an owner id at start; a claim is the session's
 * `session_drain` row naming it, with a lease on the database's clock (as the budget holds' leases are) that this
 * process extends for all its claims in one statement every third of `OUTPOST_DRAIN_LEASE_MS`. Another process takes a claim over only once its lease has passed, so a claim
 * that is no longer this process's row was lost (this process stalled past its lease): the drain must stop
 * without writing. `holds` answers that before a drain writes: at once while the lease is well ahead, by
 * renewing (one statement for every claim) when it is not.
 */
@Injectable()
export class DrainLeases implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DrainLeases.name);
  readonly owner = ulidId('own');
  private readonly leases = new Map<string, Lease>();
  private readonly lostListeners: Array<(sessionID: string) => void> = [];
  private renewing?: Promise<void>;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly drains: DrainsRepository,
    private readonly clock: Clock,
    @Inject(promptConfig.KEY) private readonly config: PromptConfig,
  ) {}

  get leaseMs(): number {
    return this.config.drainLeaseMs;
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.renew(), Math.floor(this.leaseMs / 3));
    this.timer.unref();
  }

  beforeApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** Called with each session whose claim this process finds it has lost. */
  onLost(listener: (sessionID: string) => void): void {
    this.lostListeners.push(listener);
  }

  /** Claims the session's drain; false when a drain (here or in another process) holds it, or it is gone. */
  async claim(sessionID: string): Promise<boolean> {
    const lease = { expires: sinceStart() + this.leaseMs };
    if (!(await this.drains.claim(sessionID, this.owner, this.clock.now(), this.leaseMs))) return false;
    this.leases.set(sessionID, lease);
    return true;
  }

  /**
   * Takes over the drains whose lease has passed (their process died or stalled) and returns their sessions,
   * now claimed by this process.
   */
  async takeExpired(): Promise<string[]> {
    const expires = sinceStart() + this.leaseMs;
    const taken = await this.drains.takeExpired(this.owner, this.leaseMs, [...this.leases.keys()]);
    for (const sessionID of taken) this.leases.set(sessionID, { expires });
    return taken;
  }

  /** Whether another process runs the session's drain. */
  heldElsewhere(sessionID: string): Promise<boolean> {
    return this.drains.heldByOther(sessionID, this.owner);
  }

  /**
   * Waits until no other process holds the session's drain, checking every `everyMs`, for one lease at most:
   * by then that drain has ended, or (its process gone) been closed by a sweep. False when it still runs.
   */
  async releasedElsewhere(sessionID: string, everyMs = 20): Promise<boolean> {
    const deadline = this.clock.now() + this.leaseMs;
    while (await this.heldElsewhere(sessionID)) {
      if (this.clock.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
    return true;
  }

  /** Whether this process still holds the session's claim (renewing first when its lease is not well ahead). */
  async holds(sessionID: string): Promise<boolean> {
    const lease = this.leases.get(sessionID);
    if (!lease) return false;
    if (sinceStart() < lease.expires - this.leaseMs / 3) return true;
    await this.renew();
    return this.leases.get(sessionID) === lease && sinceStart() < lease.expires;
  }

  /**
   * Ends the claim, in `manager`'s transaction when given (`released`: false when it had been lost), and tells
   * whether inputs wait in the session's inbox.
   */
  release(sessionID: string, manager?: Transaction): Promise<{ released: boolean; waiting: boolean }> {
    this.leases.delete(sessionID);
    return this.drains.release(sessionID, this.owner, manager);
  }

  /** Extends every claim of this process in one statement (one at a time: callers share the one under way). */
  renew(): Promise<void> {
    this.renewing ??= this.renewNow().finally(() => (this.renewing = undefined));
    return this.renewing;
  }

  private async renewNow(): Promise<void> {
    const held = [...this.leases];
    if (held.length === 0) return;
    const expires = sinceStart() + this.leaseMs;
    let kept: Set<string>;
    try {
      kept = new Set(
        await this.drains.renew(
          this.owner,
          held.map(([sessionID]) => sessionID),
          this.leaseMs,
        ),
      );
    } catch (error) {
      this.logger.warn(`Renewing the drain leases failed: ${String(error)}`);
      return;
    }
    for (const [sessionID, lease] of held) {
      // Released meanwhile, or released and claimed again: the renewal says nothing about that claim.
      if (this.leases.get(sessionID) !== lease) continue;
      if (kept.has(sessionID)) {
        lease.expires = expires;
        continue;
      }
      this.leases.delete(sessionID);
      this.logger.warn(`The drain of ${sessionID} was taken over by another process; it stops here`);
      for (const listener of this.lostListeners) listener(sessionID);
    }
  }
}
