import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { ChannelListener, Notifications } from './notifications';

/** The channel the `outpost_table_changed` triggers notify, with the table's name as payload. */
export const TABLE_CHANGES_CHANNEL = 'outpost_table_changes';

type Listener = (table: string) => void;

/**
 * Tells in-process caches that a table they read changed, in this process or any other on the database:
 * triggers (migration `TableChangeNotifications`) call `pg_notify` on commit, and one connection LISTENs.
 * While that connection is down `live` is false and every listener is told `*`, so caches stop serving and
 * fall back to the database until it is back.
 */
@Injectable()
export class TableChanges implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly listeners = new Set<Listener>();
  private readonly channel: ChannelListener;

  constructor(notifications: Notifications) {
    this.channel = notifications.listen(TABLE_CHANGES_CHANNEL, {
      message: (table) => this.emit(table || '*'),
      down: () => this.emit('*'),
    });
  }

  /** Whether a change committed anywhere reaches this process now. */
  get live(): boolean {
    return this.channel.live;
  }

  onChange(listener: Listener): void {
    this.listeners.add(listener);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.channel.open();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.channel.close();
  }

  private emit(table: string): void {
    for (const listener of this.listeners) listener(table);
  }
}
