import { Injectable } from '@nestjs/common';
import { wildcardMatch } from '@/common/text/wildcard';
import { TableChanges } from '@/database/table-changes';
import { PolicyStatement } from './config-document';
import { WorkspaceConfigRepository } from './workspace-config.repository';

/**
 * The workspace's policy statements, for the gateway's hot path: cached per workspace while `TableChanges`
 * is live, emptied by any change to `workspace_config` committed by any process.
 */
@Injectable()
export class WorkspacePolicies {
  private readonly cache = new Map<string, PolicyStatement[]>();
  private generation = 0;

  constructor(
    private readonly configs: WorkspaceConfigRepository,
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
    const policies = await this.configs.policies(workspaceId);
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
