import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** The `secret_fingerprint` row: stored once by the first node, read back by every node at start. */
@Injectable()
export class SecretFingerprintRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * The fingerprint this database holds, storing `fingerprint` first when it holds none. Two nodes starting
   * together both insert; the second insert does nothing and both read the row that won.
   */
  async storeOrRead(fingerprint: string): Promise<string> {
    await this.db.query(
      `INSERT INTO secret_fingerprint (id, fingerprint, updated_at) VALUES (1, $1, now())
       ON CONFLICT (id) DO NOTHING`,
      [fingerprint],
    );
    const rows = (await this.db.query('SELECT fingerprint FROM secret_fingerprint WHERE id = 1')) as Array<{
      fingerprint: string;
    }>;
    return rows[0].fingerprint;
  }

  /** Replaces the stored fingerprint (a deliberate change of the secret). */
  async replace(fingerprint: string): Promise<void> {
    await this.db.query(
      `INSERT INTO secret_fingerprint (id, fingerprint, updated_at) VALUES (1, $1, now())
       ON CONFLICT (id) DO UPDATE SET fingerprint = excluded.fingerprint, updated_at = excluded.updated_at`,
      [fingerprint],
    );
  }
}
