import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleInit,
} from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { Clock } from '../../common/clock';
import { EventLocation, EventsPublisher, OutpostEvent, PUBLISHED_EVENT } from '../../common/events';
import { ascendingId } from '../../common/ids';
import { AssistantMessage, UserMessage } from '../sessions/session-message.types';
import { SessionOutcome } from '../sessions/session.types';
import { SessionsActivity } from '../sessions/sessions-activity.service';
import { SessionsService } from '../sessions/sessions.service';
import { InboxRepository, WaitingItem } from './inbox/inbox.repository';
import { Delivery, InboxMove, InboxUser } from './inbox/inbox.types';
import { AgentLoop, RunOutcome } from './loop/agent-loop.service';

type InterruptReason = 'user' | 'shutdown' | 'deleted';

interface Drain {
  sessionID: string;
  abort: AbortController;
  reason?: InterruptReason;
  /** Set by a wake that arrives while the drain runs: look at the inbox again before ending. */
  woken: boolean;
  done: Promise<void>;
  location?: EventLocation;
}

/**
 * The drains of this process: at most one per session. A drain takes the session's inbox in order (steering
 * inputs at each step boundary, queued ones one run at a time), runs the agent loop, and ends when the inbox is
 * empty, setting `time.idle` and the outcome. While it runs the session is listed by `session.active` and a
 * `session_drain` row marks it, so a drain cut short by a crash is closed as interrupted at the next start-up.
 */
@Injectable()
export class DrainsService implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DrainsService.name);
  private readonly drains = new Map<string, Drain>();
  /** A drain that has decided to end but is still writing its end: a new one for the session waits for it. */
  private readonly ending = new Map<string, Promise<void>>();
  private stopping = false;

  constructor(
    private readonly inbox: InboxRepository,
    private readonly sessions: SessionsService,
    private readonly activity: SessionsActivity,
    private readonly loop: AgentLoop,
    private readonly events: EventsPublisher,
    private readonly emitter: EventEmitter2,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.activity.deferMoves((sessionID, directory, delivery) =>
      this.deferMove(sessionID, directory, delivery),
    );
    this.emitter.on(PUBLISHED_EVENT, (event: OutpostEvent) => {
      if (event.type === 'session.deleted') {
        const { sessionID } = event.data as { sessionID: string };
        this.stop(sessionID, 'deleted');
      }
    });
  }

  /** Drains that were running when the last process died: their sessions end as interrupted. */
  async onApplicationBootstrap(): Promise<void> {
    for (const sessionID of await this.inbox.takeLeftovers()) {
      try {
        await this.closeOpenMessages(sessionID);
        await this.sessions.markIdle(sessionID, 'interrupted');
        this.logger.log(`Session ${sessionID} was running when the server stopped; closed as interrupted`);
      } catch (error) {
        this.logger.warn(`Closing the interrupted drain of ${sessionID} failed: ${String(error)}`);
      }
    }
  }

  /** Shutdown interrupts every drain and waits for them to record it; their waiting inputs stay in the inbox. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    const running = [...this.drains.values()];
    for (const drain of running) this.stop(drain.sessionID, 'shutdown');
    await Promise.allSettled([...running.map((drain) => drain.done), ...this.ending.values()]);
  }

  /** Starts the session's drain, or tells the running one to look at its inbox again. */
  wake(sessionID: string): void {
    if (this.stopping) return;
    const running = this.drains.get(sessionID);
    if (running) {
      running.woken = true;
      return;
    }
    const drain: Drain = { sessionID, abort: new AbortController(), woken: false, done: Promise.resolve() };
    this.drains.set(sessionID, drain);
    this.activity.started(sessionID);
    const previous = this.ending.get(sessionID) ?? Promise.resolve();
    drain.done = previous.then(() => this.drive(drain));
  }

  /** Interrupts the session's drain (running tools are cancelled) and waits until it has closed. */
  async interrupt(sessionID: string): Promise<void> {
    const drain = this.stop(sessionID, 'user');
    await drain?.done;
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
    if (!this.drains.has(sessionID)) return false;
    const now = this.clock.now();
    const item: InboxMove = {
      id: ascendingId('msg', now),
      sessionID,
      timeCreated: now,
      type: 'move',
      payload: { location: { directory } },
      delivery,
    };
    if (!(await this.inbox.admit(item))) return false;
    this.events.publish('session.inbox.enqueued', { sessionID, item }, { directory });
    this.wake(sessionID);
    return true;
  }

  private async drive(drain: Drain): Promise<void> {
    const { sessionID } = drain;
    let outcome: SessionOutcome = 'succeeded';
    let failure: { type: string; message: string } | undefined;
    let resolveEnd!: () => void;
    try {
      drain.location = (await this.sessions.get(sessionID)).location;
      await this.inbox.markRunning(sessionID, this.clock.now());
      this.events.publish('session.execution.started', { sessionID }, drain.location);
      while (!drain.abort.signal.aborted) {
        drain.woken = false;
        const taken = await this.take(sessionID, 'run');
        if (taken === 'none') {
          if (drain.woken) continue;
          break;
        }
        if (taken === 0) continue; // only moves
        const result: RunOutcome = await this.loop.run({
          sessionID,
          signal: drain.abort.signal,
          waiting: () => drain.woken,
          boundary: async () => {
            // Only a wake (an admitted prompt or move) since the last look can have put steering input there.
            if (!drain.woken) return 0;
            drain.woken = false;
            const prompts = await this.take(sessionID, 'step');
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
    try {
      await this.finish(drain, outcome, failure);
    } finally {
      this.ending.delete(sessionID);
      resolveEnd();
    }
  }

  private async finish(
    drain: Drain,
    outcome: SessionOutcome,
    failure?: { type: string; message: string },
  ): Promise<void> {
    const { sessionID } = drain;
    const gone = drain.reason === 'deleted';
    const info = await Promise.all([
      this.inbox.markStopped(sessionID),
      gone ? undefined : this.sessions.markIdle(sessionID, outcome),
    ])
      .then(([, info]) => info)
      .catch((error: unknown) => {
        this.logger.warn(`Ending the drain of ${sessionID} failed: ${String(error)}`);
        return undefined;
      });
    if (!this.drains.has(sessionID)) this.activity.finished(sessionID);
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
  }

  /**
   * Takes waiting inbox items at a boundary. At a step boundary: every steering item. At a run boundary: every
   * steering item, or when none is a prompt, the queued items up to and including the first queued prompt.
   * Prompts become user messages (with the inbox item's id) and moves are applied. Returns the prompts taken,
   * or `none` when nothing was waiting.
   */
  private async take(sessionID: string, boundary: 'step' | 'run'): Promise<number | 'none'> {
    const waiting = await this.inbox.waiting(sessionID);
    let chosen = waiting.filter((item) => item.delivery === 'steer');
    if (boundary === 'run' && !chosen.some((item) => item.type === 'user')) {
      const firstPrompt = waiting.findIndex((item) => item.type === 'user' && item.delivery === 'queue');
      const queued = firstPrompt < 0 ? [] : waiting.slice(0, firstPrompt + 1);
      chosen = waiting.filter((item) => item.delivery === 'steer' || queued.includes(item));
    }
    if (chosen.length === 0) return 'none';
    let prompts = 0;
    for (const item of chosen) if (await this.deliver(item)) prompts++;
    return prompts;
  }

  /** Delivers one item; true when it was a prompt. */
  private async deliver(item: WaitingItem): Promise<boolean> {
    const now = this.clock.now();
    if (item.type === 'move') {
      const taken = await this.inbox.transaction((manager) => this.inbox.take(item.seq, now, manager));
      if (taken)
        await this.sessions.applyMove(item.sessionID, (item as InboxMove).payload.location.directory);
      return false;
    }
    const { payload } = item as InboxUser;
    const message: UserMessage = { id: item.id, type: 'user', text: payload.text, time: { created: now } };
    if (payload.files?.length) message.files = payload.files;
    if (payload.agents?.length) message.agents = payload.agents;
    if (payload.metadata) message.metadata = payload.metadata;
    const taken = await this.inbox.transaction(async (manager) => {
      if (!(await this.inbox.take(item.seq, now, manager))) return false;
      // The transcript reads in id order: an input that waited while later messages were written (a queued
      // prompt) becomes a message with a fresh id. The inbox keeps the admitted id, so a retry still conflicts.
      const last = await this.sessions.lastMessageId(item.sessionID, manager);
      if (last !== undefined && last >= message.id) message.id = ascendingId('msg', now);
      await this.sessions.appendMessage(item.sessionID, message, manager);
      return true;
    });
    if (!taken) return false;
    const session = await this.sessions.get(item.sessionID).catch(() => undefined);
    this.events.publish(
      'session.message.created',
      { sessionID: item.sessionID, message },
      session ? session.location : undefined,
    );
    return true;
  }

  /** Assistant messages a dead process left open: closed as interrupted, unfinished tools too. */
  private async closeOpenMessages(sessionID: string): Promise<void> {
    const now = this.clock.now();
    for (const message of await this.sessions.messages(sessionID)) {
      if (message.type !== 'assistant' || message.time.completed !== undefined) continue;
      const closed: AssistantMessage = {
        ...message,
        error: { type: 'AbortedError', message: 'Interrupted: the server stopped' },
        time: { ...message.time, completed: now },
        content: message.content.map((part) =>
          part.type === 'tool' && (part.state.status === 'running' || part.state.status === 'streaming')
            ? {
                ...part,
                state: {
                  status: 'error',
                  input: part.state.status === 'running' ? part.state.input : {},
                  error: { type: 'AbortedError', message: 'Interrupted: the server stopped' },
                },
              }
            : part,
        ),
      };
      await this.sessions.updateMessage(sessionID, closed);
    }
  }
}
