import { pgPool } from './pool-query';
import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Client } from 'pg';
import { DataSource } from 'typeorm';

/** The channel the `outpost_table_changed` triggers notify, with the table's name as payload. */
export const TABLE_CHANGES_CHANNEL = 'outpost_table_changes';
const RECONNECT_MS = 1_000;

type Listener = (table: string) => void;

/**
 * Tells in-process caches that a table they read changed, in this process or any other on the database:
 * triggers (migration `TableChangeNotifications`) call `pg_notify` on commit, and one connection LISTENs.
 * While that connection is down `live` is false and every listener is told `*`, so caches stop serving and
 * fall back to the database until it is back.
 */
@Injectable()
export class TableChanges implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(TableChanges.name);
  private readonly listeners = new Set<Listener>();
  private client?: Client;
  private closing = false;
  private connected = false;

  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Whether a change committed anywhere reaches this process now. */
  get live(): boolean {
    return this.connected;
  }

  onChange(listener: Listener): void {
    this.listeners.add(listener);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    this.closing = true;
    await this.client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.closing) return;
    const pool = pgPool(this.db);
    const client = new Client(pool.options);
    const lost = () => {
      if (this.client !== client) return;
      this.client = undefined;
      this.down();
      if (!this.closing) setTimeout(() => void this.connect(), RECONNECT_MS).unref();
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (message) => this.emit(message.payload ?? '*'));
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${TABLE_CHANGES_CHANNEL}`);
      this.connected = true;
    } catch (error) {
      this.logger.warn(`cannot listen for table changes (${(error as Error).message}); caches are off`);
      await client.end().catch(() => undefined);
      lost();
    }
  }

  private down(): void {
    this.connected = false;
    this.emit('*');
  }

  private emit(table: string): void {
    for (const listener of this.listeners) listener(table);
  }
}
