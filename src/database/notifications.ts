import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { pgPool } from './pool-query';

const RECONNECT_MS = 1_000;

export interface ChannelHandlers {
  /** A payload another process (or this one) sent on the channel. */
  message(payload: string): void;
  /** The listening connection is down (and while it is, nothing is heard): reconnecting. */
  down?(): void;
}

/** A `LISTEN` on one channel, on a connection of its own, re-opened a second after it drops. */
export class ChannelListener {
  private client?: Client;
  private closed = false;
  private connected = false;

  constructor(
    private readonly db: DataSource,
    private readonly channel: string,
    private readonly handlers: ChannelHandlers,
    private readonly logger: Logger,
  ) {}

  /** Whether what is sent on the channel reaches this process now. */
  get live(): boolean {
    return this.connected;
  }

  async open(): Promise<void> {
    if (this.closed) return;
    const client = new Client(pgPool(this.db).options);
    const lost = () => {
      if (this.client !== client) return;
      this.client = undefined;
      this.connected = false;
      this.handlers.down?.();
      client.end().catch(() => undefined);
      if (!this.closed) setTimeout(() => void this.open(), RECONNECT_MS).unref();
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (notification) => this.handlers.message(notification.payload ?? ''));
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
      this.connected = true;
    } catch (error) {
      this.logger.warn(`cannot listen on ${this.channel} (${(error as Error).message}); retrying`);
      lost();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.client?.end().catch(() => undefined);
  }
}

/**
 * `LISTEN`/`NOTIFY` between the processes on one database, the one way modules use it: `listen` opens a channel's
 * listener (reconnecting by itself), `notify` sends on it (delivered when the sender's transaction commits).
 */
@Injectable()
export class Notifications {
  private readonly logger = new Logger('Notifications');

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  listen(channel: string, handlers: ChannelHandlers): ChannelListener {
    return new ChannelListener(this.db, channel, handlers, this.logger);
  }

  async notify(channel: string, payload: string): Promise<void> {
    await this.db.query('SELECT pg_notify($1, $2)', [channel, payload]);
  }
}
