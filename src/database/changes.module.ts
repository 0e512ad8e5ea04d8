import { Global, Module } from '@nestjs/common';
import { TableChanges } from './table-changes';

/** `TableChanges` for every module: the notifications in-process caches are invalidated by. */
@Global()
@Module({ providers: [TableChanges], exports: [TableChanges] })
export class ChangesModule {}
