import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { poolQuery } from '@/database/pool-query';
import { Transaction } from '@/database/transaction';
import { ConfigDocument, PolicyStatement } from './config-document';
import { WorkspaceConfigEntity } from './workspace-config.entity';

/** What a workspace's config is stored as: the document, its rendering, and the rendering's ETag. */
export interface StoredConfig {
  document: ConfigDocument;
  rendered: string;
  etag: string;
}

/** The `workspace_config` table: one row per workspace that changed its config. */
@Injectable()
export class WorkspaceConfigRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The current ETag, and the rendering only when it is not among `known` (null then); none without a row. */
  async rendered(
    workspaceId: string,
    known: string[],
  ): Promise<{ etag: string; rendered: string | null } | null> {
    const rows = (await this.db.query(
      `SELECT etag, CASE WHEN etag = ANY($2::varchar[]) THEN NULL ELSE rendered END AS rendered
         FROM workspace_config WHERE workspace_id = $1`,
      [workspaceId, known],
    )) as Array<{ etag: string; rendered: string | null }>;
    return rows[0] ?? null;
  }

  /** The workspace's policy statements (none without a row), on the hot path's prepared statement. */
  async policies(workspaceId: string): Promise<PolicyStatement[]> {
    const rows = await poolQuery<{ policies: PolicyStatement[] | null }>(
      this.db,
      `SELECT document->'policies' AS policies FROM workspace_config WHERE workspace_id = $1`,
      [workspaceId],
    );
    return rows[0]?.policies ?? [];
  }

  /** The workspace's web search setting (`websearch`), null while disabled or without a row. */
  async websearch(workspaceId: string): Promise<ConfigDocument['websearch']> {
    const rows = await poolQuery<{ websearch: ConfigDocument['websearch'] }>(
      this.db,
      `SELECT document->'websearch' AS websearch FROM workspace_config WHERE workspace_id = $1`,
      [workspaceId],
    );
    return rows[0]?.websearch ?? null;
  }

  /** The workspace's row, created as `empty` if it has none, locked until `tx` ends. */
  async lock(
    tx: Transaction,
    workspaceId: string,
    empty: StoredConfig,
    at: Date,
  ): Promise<WorkspaceConfigEntity> {
    await tx.query(
      `INSERT INTO workspace_config (workspace_id, document, rendered, etag, updated_at)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT (workspace_id) DO NOTHING`,
      [workspaceId, empty.document, empty.rendered, empty.etag, at],
    );
    return tx.findOneOrFail(WorkspaceConfigEntity, {
      where: { workspaceId },
      lock: { mode: 'pessimistic_write' },
    });
  }

  async save(
    tx: Transaction,
    workspaceId: string,
    config: StoredConfig,
    at: Date,
    by: string | null,
  ): Promise<void> {
    await tx.query(
      `UPDATE workspace_config SET document = $2, rendered = $3, etag = $4, updated_at = $5, updated_by = $6
        WHERE workspace_id = $1`,
      [workspaceId, config.document, config.rendered, config.etag, at, by],
    );
  }
}
