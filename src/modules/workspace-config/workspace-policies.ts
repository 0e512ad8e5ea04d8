import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { wildcardMatch } from '@/common/text/wildcard';
import { poolQuery } from '@/database/pool-query';
import { TableChanges } from '@/database/table-changes';
import { PolicyStatement } from './config-document';

/**
 * The workspace's policy statements, for the gateway's hot path: cached per workspace while `TableChanges`
 * is live, emptied by any change to `workspace_config` committed by any process.
 */
@Injectable()
export class WorkspacePolicies {
  private readonly cache = new Map<string, PolicyStatement[]>();
  private generation = 0;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly changes: TableChanges,
  ) {
    changes.onChange((table) => {
      if (table === '*' || table === 'workspace_config') this.forget();
    });
  }

  /** Drops every cached workspace's statements (a lookup in flight is not stored either). */
  forget(): void {
    this.generation++;
    this.cache.clear();
  }

  async of(workspaceId: string): Promise<PolicyStatement[]> {
    const cached = this.changes.live ? this.cache.get(workspaceId) : undefined;
    if (cached) return cached;
    const generation = this.generation;
    const rows = await poolQuery<{ policies: PolicyStatement[] | null }>(
      this.db,
      `SELECT document->'policies' AS policies FROM workspace_config WHERE workspace_id = $1`,
      [workspaceId],
    );
    const policies = rows[0]?.policies ?? [];
    if (this.changes.live && generation === this.generation) this.cache.set(workspaceId, policies);
    return policies;
  }

  /**
   * Whether the `provider.use` statements let the workspace use a model: a statement's resource is matched
   * against the provider id and against `<provider>/<model>`; the last matching statement wins; none: allowed.
   */
  async allows(workspaceId: string, provider: string, model: string): Promise<boolean> {
    let allowed = true;
    for (const statement of await this.of(workspaceId)) {
      if (statement.action !== 'provider.use') continue;
      if (wildcardMatch(statement.resource, provider) || wildcardMatch(statement.resource, model)) {
        allowed = statement.effect === 'allow';
      }
    }
    return allowed;
  }
}
