import { Global, Module } from '@nestjs/common';
import { DatabaseHealth } from './database-health';
import { TableChanges } from './table-changes';
import { Transactions } from './transaction';

/**
 * For every module: `TableChanges` (the notifications in-process caches are invalidated by), `Transactions` (a
 * service's unit of work, passed to its repositories) and `DatabaseHealth` (for the probes).
 */
@Global()
@Module({
  providers: [TableChanges, Transactions, DatabaseHealth],
  exports: [TableChanges, Transactions, DatabaseHealth],
})
export class DatabaseServicesModule {}
