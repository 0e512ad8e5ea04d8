import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/** One database transaction, handed by a service to the repositories whose statements run in it. */
export type Transaction = EntityManager;

/**
 * Transactions for services, which name no database library: a service opens one around a change and its audit
 * entry, and passes it to each repository it calls.
 */
@Injectable()
export class Transactions {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }
}
