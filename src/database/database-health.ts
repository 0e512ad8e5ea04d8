import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** What the probes and `/api/info` ask of the database: does it answer, and is its schema this build's. */
@Injectable()
export class DatabaseHealth {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Connected and answering a statement. */
  async answers(): Promise<boolean> {
    if (!this.db.isInitialized) return false;
    try {
      await this.db.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  /** A migration this build knows is not applied (or the database cannot say). */
  migrationsPending(): Promise<boolean> {
    return this.db.showMigrations().catch(() => true);
  }
}
