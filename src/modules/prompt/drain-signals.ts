import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ChannelListener, Notifications } from '@/database/notifications';
import { DrainLeases } from './drain-leases';

const CHANNEL = 'outpost_drain_signal';

/**
 * What one process asks of the drain another process runs:
 * - `interrupt`: stop it, as `session.interrupt` does here;
 * - `wake`: input for it was admitted (a steering prompt or a move), to be taken at its next step boundary;
 * - `deleted`: its session was deleted: stop it without writing its end.
 */
export type DrainSignal = 'interrupt' | 'wake' | 'deleted';

const SIGNALS = new Set<string>(['interrupt', 'wake', 'deleted']);

interface SignalMessage {
  sessionID: string;
  signal: DrainSignal;
  /** The sending process's owner id: a process ignores its own signals. */
  from: string;
}

/**
 * Signals between the processes on one PostgreSQL database, over `LISTEN`/`NOTIFY` on one channel (the platform's
 * Notifications: each process listens on a connection of its own, re-opened when it drops) handed to the drains.
 */
@Injectable()
export class DrainSignals implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DrainSignals.name);
  private readonly handlers: Array<(sessionID: string, signal: DrainSignal) => void> = [];
  private readonly channel: ChannelListener;

  constructor(
    private readonly notifications: Notifications,
    private readonly leases: DrainLeases,
  ) {
    this.channel = notifications.listen(CHANNEL, { message: (payload) => this.receive(payload) });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.channel.open();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.channel.close();
  }

  /** Called with every signal another process sends. */
  onSignal(handler: (sessionID: string, signal: DrainSignal) => void): void {
    this.handlers.push(handler);
  }

  /** Tells the other processes; a failure is logged, not thrown (the drain's lease still bounds the wait). */
  async send(sessionID: string, signal: DrainSignal): Promise<void> {
    const message: SignalMessage = { sessionID, signal, from: this.leases.owner };
    await this.notifications
      .notify(CHANNEL, JSON.stringify(message))
      .catch((error: unknown) =>
        this.logger.warn(`Sending ${signal} for ${sessionID} failed: ${String(error)}`),
      );
  }

  private receive(payload: string): void {
    let message: SignalMessage;
    try {
      message = JSON.parse(payload) as SignalMessage;
    } catch {
      return;
    }
    if (message.from === this.leases.owner) return;
    if (!SIGNALS.has(message.signal)) return;
    for (const handler of this.handlers) handler(message.sessionID, message.signal);
  }
}
