import { Global, Module } from '@nestjs/common';
import { DatabaseHealth } from './database-health';
import { Notifications } from './notifications';
import { TableChanges } from './table-changes';
import { Transactions } from './transaction';

/**
 * For every module: `Notifications` (`LISTEN`/`NOTIFY` between processes), `TableChanges` (the notifications
 * in-process caches are invalidated by), `Transactions` (a service's unit of work, passed to its repositories) and
 * `DatabaseHealth` (for the probes).
 */
@Global()
@Module({
  providers: [Notifications, TableChanges, Transactions, DatabaseHealth],
  exports: [Notifications, TableChanges, Transactions, DatabaseHealth],
})
export class DatabaseServicesModule {}
