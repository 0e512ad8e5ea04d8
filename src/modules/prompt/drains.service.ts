import { BeforeApplicationShutdown, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { Clock } from '@/common/clock';
import { EventLocation, EventsPublisher, OutpostEvent, PUBLISHED_EVENT } from '@/common/events';
import { ascendingId } from '@/common/ids';
import { UserMessage } from '../sessions/session-message.types';
import { SessionInfo, SessionOutcome } from '../sessions/session.types';
import { SessionsActivity } from '../sessions/sessions-activity';
import { SessionsService } from '../sessions/sessions.service';
import { DrainLeases } from './drain-leases';
import { DrainSignals } from './drain-signals';
import { InboxRepository, WaitingItem } from './inbox/inbox.repository';
import { Delivery, InboxMove, InboxUser } from './inbox/inbox.types';
import { AgentLoop, RunOutcome } from './loop/agent-loop';
import { liveGauge } from '@/common/metrics/metrics';

/** `lost`: another process took the drain over (this one stalled past its lease); it stops without writing. */
type InterruptReason = 'user' | 'shutdown' | 'deleted' | 'lost';

interface Drain {
  sessionID: string;
  abort: AbortController;
  reason?: InterruptReason;
  /** Set by a wake that arrives while the drain runs: look at the inbox again before ending. */
  woken: boolean;
  /** Resolves once the drain has claimed the session, or has given up (another process runs its drain). */
  claimed: Promise<void>;
  done: Promise<void>;
  location?: EventLocation;
}

/**
 * The drains of this process. A drain takes the session's inbox in order (steering inputs at each step boundary,
 * queued ones one run at a time), runs the agent loop, and ends when the inbox is empty, setting `time.idle` and
 * the outcome. At most one drain per session in all processes on the database: a drain first claims the
 * session's `session_drain` row (`DrainLeases`), and one that finds it held gives up, leaving its input to the
 * drain that runs (which takes it from the inbox at its next run boundary). While it runs the session is listed
 * by `session.active`. A drain that has lost its claim stops without writing; one whose process died is closed
 * by `DrainRecovery`.
 */
@Injectable()
export class DrainsService implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(DrainsService.name);
  private readonly drains = new Map<string, Drain>();
  /** A drain that has decided to end but is still writing its end: a new one for the session waits for it. */
  private readonly ending = new Map<string, Promise<void>>();
  private stopping = false;

  constructor(
    private readonly inbox: InboxRepository,
    private readonly leases: DrainLeases,
    private readonly signals: DrainSignals,
    private readonly sessions: SessionsService,
    private readonly activity: SessionsActivity,
    private readonly loop: AgentLoop,
    private readonly events: EventsPublisher,
    private readonly emitter: EventEmitter2,
    private readonly clock: Clock,
  ) {
    liveGauge(
      'outpost_drains_running',
      'Session drains (agent runs) this process runs.',
      () => this.drains.size,
    );
  }

  onModuleInit(): void {
    this.leases.onLost((sessionID) => this.stop(sessionID, 'lost'));
    // Asked by another process, about a drain that may run here.
    this.signals.onSignal((sessionID, signal) => {
      if (signal === 'wake') this.poke(sessionID);
      else this.stop(sessionID, signal === 'interrupt' ? 'user' : 'deleted');
    });
    this.activity.deferMoves((sessionID, directory, delivery) =>
      this.deferMove(sessionID, directory, delivery),
    );
    this.emitter.on(PUBLISHED_EVENT, (event: OutpostEvent) => {
      if (event.type === 'session.deleted') {
        const { sessionID } = event.data as { sessionID: string };
        // Here, or in the process that runs its drain.
        if (!this.stop(sessionID, 'deleted')) void this.signals.send(sessionID, 'deleted');
      }
    });
  }

  /** Shutdown interrupts every drain and waits for them to record it; their waiting inputs stay in the inbox. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    const running = [...this.drains.values()];
    for (const drain of running) this.stop(drain.sessionID, 'shutdown');
    await Promise.allSettled([...running.map((drain) => drain.done), ...this.ending.values()]);
  }

  /**
   * Starts the session's drain, or tells the running one to look at its inbox again. Resolves once the drain
   * has claimed the session (`session.execution.started` is out) or found that another process runs it.
   */
  wake(sessionID: string): Promise<void> {
    if (this.stopping) return Promise.resolve();
    const running = this.drains.get(sessionID);
    if (running) {
      running.woken = true;
      return running.claimed;
    }
    let settle!: () => void;
    const claimed = new Promise<void>((resolve) => (settle = resolve));
    const drain: Drain = { sessionID, abort: new AbortController(), woken: false, claimed, done: claimed };
    this.drains.set(sessionID, drain);
    this.activity.started(sessionID);
    const previous = this.ending.get(sessionID) ?? Promise.resolve();
    drain.done = previous.then(() => this.drive(drain, settle));
    return claimed;
  }

  /**
   * Interrupts the session's drain (running tools are cancelled) and waits until it has closed: here, or in the
   * process that runs it, which is signalled.
   */
  async interrupt(sessionID: string): Promise<void> {
    const drain = this.stop(sessionID, 'user');
    if (drain) return drain.done;
    if (!(await this.leases.heldElsewhere(sessionID))) return;
    await this.signals.send(sessionID, 'interrupt');
    if (!(await this.leases.releasedElsewhere(sessionID))) {
      this.logger.warn(`The drain of ${sessionID} in another process did not end within a lease`);
    }
  }

  /** Tells a drain running here that input waits for it (admitted by another process). */
  private poke(sessionID: string): void {
    const running = this.drains.get(sessionID);
    if (running) running.woken = true;
  }

  isRunning(sessionID: string): boolean {
    return this.drains.has(sessionID);
  }

  private stop(sessionID: string, reason: InterruptReason): Drain | undefined {
    const drain = this.drains.get(sessionID);
    if (!drain) return undefined;
    drain.reason ??= reason;
    drain.abort.abort();
    return drain;
  }

  private async deferMove(sessionID: string, directory: string, delivery: Delivery): Promise<boolean> {
    if (!this.drains.has(sessionID) && !(await this.leases.heldElsewhere(sessionID))) return false;
    const now = this.clock.now();
    const item: InboxMove = {
      id: ascendingId('msg', now),
      sessionID,
      timeCreated: now,
      type: 'move',
      payload: { location: { directory } },
      delivery,
    };
    if ((await this.inbox.admit(item)) === undefined) return false;
    this.events.publish('session.inbox.enqueued', { sessionID, item }, { directory });
    await this.wake(sessionID);
    return true;
  }

  private async drive(drain: Drain, settle: () => void): Promise<void> {
    const { sessionID } = drain;
    const claimed = await this.claim(drain);
    if (claimed) this.events.publish('session.execution.started', { sessionID }, drain.location);
    // Another process runs the drain: told before the caller is answered, its next step boundary takes the
    // steering input admitted here.
    else await this.signals.send(sessionID, 'wake');
    settle();
    if (!claimed) {
      this.drains.delete(sessionID);
      this.activity.finished(sessionID);
      return;
    }
    let outcome: SessionOutcome = 'succeeded';
    let failure: { type: string; message: string } | undefined;
    /** The inbox was found empty: the drain ended because its work was done. */
    let drained = false;
    let resolveEnd!: () => void;
    try {
      while (!drain.abort.signal.aborted) {
        drain.woken = false;
        const taken = await this.take(drain, 'run');
        if (taken === 'none') {
          if (drain.woken) continue;
          drained = !drain.abort.signal.aborted;
          break;
        }
        if (taken === 0) continue; // only moves
        const result: RunOutcome = await this.loop.run({
          sessionID,
          signal: drain.abort.signal,
          waiting: () => drain.woken,
          owned: () => this.holds(drain),
          boundary: async () => {
            // Only a wake (an admitted prompt or move) since the last look can have put steering input there.
            if (!drain.woken) return 0;
            drain.woken = false;
            const prompts = await this.take(drain, 'step');
            return prompts === 'none' ? 0 : prompts;
          },
        });
        if (result.status === 'failed') {
          outcome = 'failed';
          failure = result.error;
        } else outcome = result.status === 'interrupted' ? 'interrupted' : 'succeeded';
        if (result.status === 'interrupted') break;
      }
    } catch (error) {
      if (!drain.abort.signal.aborted) {
        outcome = 'failed';
        failure = {
          type: (error as { tag?: string }).tag ?? 'UnknownError',
          message: error instanceof Error ? error.message : String(error),
        };
        this.logger.warn(`The drain of ${sessionID} failed: ${failure.message}`);
      }
    } finally {
      // Decided to end: from here a wake starts a new drain, which waits for this one's end to be written.
      this.drains.delete(sessionID);
      this.ending.set(sessionID, new Promise<void>((resolve) => (resolveEnd = resolve)));
    }
    if (drain.abort.signal.aborted) outcome = 'interrupted';
    let waiting = false;
    try {
      waiting = await this.finish(drain, outcome, failure);
    } finally {
      this.ending.delete(sessionID);
      resolveEnd();
    }
    // Input admitted by another process while this drain was ending: that process found the session claimed.
    if (drained && waiting) void this.wake(sessionID);
  }

  /** Claims the session for this drain; false when another process runs its drain (or it is gone). */
  private async claim(drain: Drain): Promise<boolean> {
    try {
      drain.location = (await this.sessions.get(drain.sessionID)).location;
      return await this.leases.claim(drain.sessionID);
    } catch (error) {
      this.logger.warn(`Starting the drain of ${drain.sessionID} failed: ${String(error)}`);
      return false;
    }
  }

  /** Whether this drain still holds its claim; one that has lost it is stopped. */
  private async holds(drain: Drain): Promise<boolean> {
    if (drain.reason !== 'lost' && (await this.leases.holds(drain.sessionID))) return true;
    drain.reason ??= 'lost';
    drain.abort.abort();
    return false;
  }

  /**
   * Ends the claim and records the end: `time.idle` and the outcome (unless the session is gone) in the same
   * transaction, so a drain that lost its claim writes nothing. Returns whether inputs wait in the inbox.
   */
  private async finish(
    drain: Drain,
    outcome: SessionOutcome,
    failure?: { type: string; message: string },
  ): Promise<boolean> {
    const { sessionID } = drain;
    let end: { released: boolean; waiting: boolean } | undefined;
    let info: SessionInfo | undefined;
    try {
      if (drain.reason === 'deleted') await this.leases.release(sessionID);
      else if (drain.reason !== 'lost') {
        info = await this.sessions.markIdle(sessionID, outcome, async (manager) => {
          end = await this.leases.release(sessionID, manager);
          return end.released;
        });
      }
    } catch (error) {
      this.logger.warn(`Ending the drain of ${sessionID} failed: ${String(error)}`);
    }
    if (!this.drains.has(sessionID)) this.activity.finished(sessionID);
    if (drain.reason === 'lost' || end?.released === false) {
      this.logger.warn(`The drain of ${sessionID} lost its claim to another process and stopped`);
      return false;
    }
    const at = drain.location;
    if (outcome === 'succeeded') this.events.publish('session.execution.succeeded', { sessionID }, at);
    else if (outcome === 'failed') {
      const error = failure ?? { type: 'UnknownError', message: 'The run failed' };
      this.events.publish('session.execution.failed', { sessionID, error }, at);
    } else {
      const reason = drain.reason ?? 'user';
      this.events.publish('session.execution.interrupted', { sessionID, reason }, at);
    }
    if (info) this.events.publish('session.idle', { sessionID, outcome }, info.location);
    return end?.waiting ?? false;
  }

  /**
   * Takes waiting inbox items at a boundary. At a step boundary: every steering item. At a run boundary: every
   * steering item, or when none is a prompt, the queued items up to and including the first queued prompt.
   * Prompts become user messages (with the inbox item's id) and moves are applied. Returns the prompts taken,
   * or `none` when nothing was waiting.
   */
  private async take(drain: Drain, boundary: 'step' | 'run'): Promise<number | 'none'> {
    if (!(await this.holds(drain))) return 'none';
    const waiting = await this.inbox.waiting(drain.sessionID);
    let chosen = waiting.filter((item) => item.delivery === 'steer');
    if (boundary === 'run' && !chosen.some((item) => item.type === 'user')) {
      const firstPrompt = waiting.findIndex((item) => item.type === 'user' && item.delivery === 'queue');
      const queued = firstPrompt < 0 ? [] : waiting.slice(0, firstPrompt + 1);
      chosen = waiting.filter((item) => item.delivery === 'steer' || queued.includes(item));
    }
    if (chosen.length === 0) return 'none';
    let prompts = 0;
    for (const item of chosen) {
      const delivered = await this.deliver(item);
      if (delivered === 'prompt') prompts++;
      else if (delivered === 'refused') {
        // Not this drain's to take any more (its claim was taken over, or the session deleted): find out.
        await this.leases.renew();
        if (!(await this.holds(drain))) return 'none';
      }
    }
    return prompts;
  }

  /** Delivers one item; `refused` when the inbox would not give it to this process (no longer its drain). */
  private async deliver(item: WaitingItem): Promise<'prompt' | 'move' | 'refused'> {
    const now = this.clock.now();
    const owner = this.leases.owner;
    if (item.type === 'move') {
      const taken = await this.inbox.transaction((manager) => this.inbox.take(item.seq, now, owner, manager));
      if (!taken) return 'refused';
      await this.sessions.applyMove(item.sessionID, (item as InboxMove).payload.location.directory);
      return 'move';
    }
    const { payload } = item as InboxUser;
    const message: UserMessage = { id: item.id, type: 'user', text: payload.text, time: { created: now } };
    if (payload.files?.length) message.files = payload.files;
    if (payload.agents?.length) message.agents = payload.agents;
    if (payload.metadata) message.metadata = payload.metadata;
    const taken = await this.inbox.transaction(async (manager) => {
      if (!(await this.inbox.take(item.seq, now, owner, manager))) return false;
      // The transcript reads in id order: an input that waited while later messages were written (a queued
      // prompt) becomes a message with a fresh id. The inbox keeps the admitted id, so a retry still conflicts.
      const last = await this.sessions.lastMessageId(item.sessionID, manager);
      if (last !== undefined && last >= message.id) message.id = ascendingId('msg', now);
      await this.sessions.appendMessage(item.sessionID, message, manager);
      return true;
    });
    if (!taken) return 'refused';
    const session = await this.sessions.get(item.sessionID).catch(() => undefined);
    this.events.publish(
      'session.message.created',
      { sessionID: item.sessionID, message },
      session ? session.location : undefined,
    );
    return 'prompt';
  }
}
