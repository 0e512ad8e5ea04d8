import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { ModelKind, UpstreamSchema } from './catalogue-terms';

export const AUTH_MODES = ['bearer', 'header'] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

/** Prices in USD per million tokens, as the owner entered them. */
export interface StoredPrices {
  input: number;
  output: number;
  cache_read?: number;
  cache_write?: number;
}

/** The models a connection serves, by the id callers put in `model`. */

export type StoredModels = Record<string, { name: string; prices?: StoredPrices; kind?: ModelKind }>;

/**
 * A workspace's bring-your-own-key connection to a provider. The credential is stored only encrypted
 * (AES-256-GCM, see CredentialCipher); `credential_last4` is what lists show of it.
 */
@Entity('connection')
export class ConnectionEntity {
  @PrimaryColumn('varchar', { length: 40 })
  id!: string;

  @Index()
  @Column('varchar', { length: 40 })
  workspaceId!: string;

  @Column('varchar', { length: 200 })
  name!: string;

  @Column('varchar', { length: 2048 })
  baseUrl!: string;

  @Column('varchar', { length: 32 })
  schema!: UpstreamSchema;

  @Column('varchar', { length: 16 })
  authMode!: AuthMode;

  /** The header that carries the credential when `authMode` is `header`. */
  @Column('varchar', { length: 100, nullable: true })
  authHeader!: string | null;

  /** Version byte, 12-byte IV, 16-byte GCM tag, ciphertext. */
  @Column('bytea')
  credentialCipher!: Buffer;

  /** The credential's last four characters; null when it is too short to show any. */
  @Column('varchar', { length: 4, nullable: true })
  credentialLast4!: string | null;

  @Column('jsonb')
  models!: StoredModels;

  @Column('varchar', { length: 40 })
  createdBy!: string;

  @Column('timestamptz')
  createdAt!: Date;

  @Column('timestamptz')
  updatedAt!: Date;
}
