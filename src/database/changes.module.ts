import { Global, Module } from '@nestjs/common';
import { TableChanges } from './table-changes';
import { Transactions } from './transaction';

/**
 * For every module: `TableChanges` (the notifications in-process caches are invalidated by) and `Transactions`
 * (a service's unit of work, passed to its repositories).
 */
@Global()
@Module({ providers: [TableChanges, Transactions], exports: [TableChanges, Transactions] })
export class ChangesModule {}
