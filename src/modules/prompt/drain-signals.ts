import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Client, Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { DrainLeases } from './drain-leases';

const CHANNEL = 'outpost_drain_signal';
const RECONNECT_MS = 1_000;

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
 * Signals between the processes on one PostgreSQL database, over `LISTEN`/`NOTIFY` on one channel: each process
 * listens on a connection of its own (re-opened when it drops) and hands what it hears to the drains.
 */
@Injectable()
export class DrainSignals implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(DrainSignals.name);
  private readonly handlers: Array<(sessionID: string, signal: DrainSignal) => void> = [];
  private listener?: Client;
  private reconnect?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly leases: DrainLeases,
  ) {}

  private get pool(): Pool | undefined {
    const master = (this.db.driver as PostgresDriver).master as unknown;
    return master instanceof Pool ? master : undefined;
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.listen();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnect);
    await this.listener?.end().catch(() => undefined);
  }

  /** Called with every signal another process sends. */
  onSignal(handler: (sessionID: string, signal: DrainSignal) => void): void {
    this.handlers.push(handler);
  }

  /** Tells the other processes; a failure is logged, not thrown (the drain's lease still bounds the wait). */
  async send(sessionID: string, signal: DrainSignal): Promise<void> {
    if (!this.pool) return;
    const message: SignalMessage = { sessionID, signal, from: this.leases.owner };
    await this.db
      .query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify(message)])
      .catch((error: unknown) =>
        this.logger.warn(`Sending ${signal} for ${sessionID} failed: ${String(error)}`),
      );
  }

  private async listen(): Promise<void> {
    const pool = this.pool;
    if (!pool || this.stopped) return;
    const client = new Client(pool.options);
    client.on('notification', (notification) => this.receive(notification.payload));
    client.on('error', (error) => {
      this.logger.warn(`The signal connection failed: ${error.message}; reconnecting`);
      this.retry(client);
    });
    client.on('end', () => this.retry(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      this.listener = client;
    } catch (error) {
      this.logger.warn(`Listening for drain signals failed: ${String(error)}; retrying`);
      this.retry(client);
    }
  }

  private retry(client: Client): void {
    if (this.stopped || this.reconnect) return;
    if (this.listener === client) this.listener = undefined;
    client.end().catch(() => undefined);
    this.reconnect = setTimeout(() => {
      this.reconnect = undefined;
      void this.listen();
    }, RECONNECT_MS);
    this.reconnect.unref();
  }

  private receive(payload: string | undefined): void {
    let message: SignalMessage;
    try {
      message = JSON.parse(payload ?? '') as SignalMessage;
    } catch {
      return;
    }
    if (message.from === this.leases.owner) return;
    if (!SIGNALS.has(message.signal)) return;
    for (const handler of this.handlers) handler(message.sessionID, message.signal);
  }
}
