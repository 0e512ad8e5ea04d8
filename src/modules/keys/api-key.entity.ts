import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { Permission } from '../console-access/console-principal';
import { HashedSecretColumns } from './hashed-secret.columns';

/**
 * A console API key, bound to one workspace: a service account's (`service_account_id`) or a person's
 * own (`user_id`). Only the public id and an HMAC of the secret are stored.
 */
@Entity('api_key')
@Index(['workspaceId', 'userId'])
export class ApiKeyEntity extends HashedSecretColumns {
  @PrimaryColumn('varchar', { length: 40 })
  id!: string;

  @Column('varchar', { length: 40 })
  workspaceId!: string;

  @Index()
  @Column('varchar', { length: 40, nullable: true })
  serviceAccountId!: string | null;

  @Column('varchar', { length: 40, nullable: true })
  userId!: string | null;

  @Column('varchar', { length: 10 })
  permission!: Permission;

  @Column('varchar', { length: 40 })
  createdBy!: string;

  /** Model calls a minute this key may make on the gateway (every node counts them together); null: no limit. */
  @Column('int', { nullable: true })
  requestsPerMinute!: number | null;

  /** Input and output tokens a minute; null: no limit. */
  @Column('int', { nullable: true })
  tokensPerMinute!: number | null;

  /** The models and routes this key may call on the gateway; null: whatever the workspace allows. */
  @Column('jsonb', { nullable: true })
  allowedModels!: string[] | null;

  /** What this key may spend a UTC month on the gateway, held like a member's budget; null: no budget of its own. */
  @Column('bigint', { nullable: true })
  monthlyBudgetMicroCents!: string | null;
}
