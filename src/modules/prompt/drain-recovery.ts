import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Clock } from '@/common/clock';
import { EventsPublisher } from '@/common/events';
import { AssistantMessage } from '../sessions/session-message.types';
import { SessionsService } from '../sessions/sessions.service';
import { DrainLeases } from './drain-leases';
import { DrainsRepository } from './drains.repository';
import { DrainsService } from './drains.service';

const STOPPED = { type: 'AbortedError', message: 'Interrupted: the server stopped' };

/**
 * Closes the drains of processes that died. At start-up and then every third of the lease, this process takes
 * over the drains whose lease has passed (their owner stopped renewing it; a live owner's drains are left alone),
 * closes their open assistant messages and running tools as interrupted, marks the sessions idle with outcome
 * `interrupted`, and wakes the drain again of each session whose inbox still holds input, so nothing admitted is
 * lost.
 */
@Injectable()
export class DrainRecovery implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DrainRecovery.name);
  private timer?: NodeJS.Timeout;
  private sweeping?: Promise<void>;
  private stopping = false;

  constructor(
    private readonly leases: DrainLeases,
    private readonly repository: DrainsRepository,
    private readonly drains: DrainsService,
    private readonly sessions: SessionsService,
    private readonly events: EventsPublisher,
    private readonly clock: Clock,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.sweep();
    this.timer = setInterval(() => void this.sweep(), Math.floor(this.leases.leaseMs / 3));
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearInterval(this.timer);
    await this.sweeping;
  }

  /** One sweep at a time. */
  sweep(): Promise<void> {
    this.sweeping ??= this.sweepNow().finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  private async sweepNow(): Promise<void> {
    let taken: string[];
    try {
      taken = await this.leases.takeExpired();
    } catch (error) {
      this.logger.warn(`Looking for the drains of stopped processes failed: ${String(error)}`);
      return;
    }
    for (const sessionID of taken) await this.close(sessionID);
  }

  /** Closes a dead process's drain (now claimed by this process) as interrupted, then wakes what waits. */
  private async close(sessionID: string): Promise<void> {
    try {
      await this.closeOpenMessages(sessionID);
      let end: { released: boolean; waiting: boolean } | undefined;
      const info = await this.sessions.markIdle(sessionID, 'interrupted', async (manager) => {
        end = await this.leases.release(sessionID, manager);
        return end.released;
      });
      if (!end?.released) return;
      this.logger.log(`Session ${sessionID} was running in a server that stopped; closed as interrupted`);
      if (info) {
        const at = info.location;
        this.events.publish('session.execution.interrupted', { sessionID, reason: 'shutdown' }, at);
        this.events.publish('session.idle', { sessionID, outcome: 'interrupted' }, at);
      }
      if (end.waiting && !this.stopping) await this.drains.wake(sessionID);
    } catch (error) {
      this.logger.warn(`Closing the interrupted drain of ${sessionID} failed: ${String(error)}`);
    }
  }

  /** Assistant messages a dead process left open: closed as interrupted, unfinished tools too. */
  private async closeOpenMessages(sessionID: string): Promise<void> {
    const now = this.clock.now();
    for (const message of await this.sessions.messages(sessionID)) {
      if (message.type !== 'assistant' || message.time.completed !== undefined) continue;
      const closed: AssistantMessage = {
        ...message,
        error: STOPPED,
        time: { ...message.time, completed: now },
        content: message.content.map((part) =>
          part.type === 'tool' && (part.state.status === 'running' || part.state.status === 'streaming')
            ? {
                ...part,
                state: {
                  status: 'error',
                  input: part.state.status === 'running' ? part.state.input : {},
                  error: STOPPED,
                },
              }
            : part,
        ),
      };
      await this.sessions.updateMessage(sessionID, closed);
    }
  }
}
