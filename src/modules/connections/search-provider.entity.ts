import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { SearchKind } from '@/common/web-search/web-search.types';

/**
 * A workspace's web search provider (Brave, Tavily, Exa or a SearXNG server), which the gateway's
 * `POST /inference/v1/search` calls. Its key is stored only encrypted (AES-256-GCM, `CredentialCipher`, as a
 * connection's); SearXNG has none.
 */
@Entity('search_provider')
export class SearchProviderEntity {
  @PrimaryColumn('varchar', { length: 40 })
  id!: string;

  @Index()
  @Column('varchar', { length: 40 })
  workspaceId!: string;

  @Column('varchar', { length: 200 })
  name!: string;

  @Column('varchar', { length: 16 })
  kind!: SearchKind;

  /** Null: the provider's public API (SearXNG always has one). */
  @Column('varchar', { length: 2048, nullable: true })
  baseUrl!: string | null;

  /** Version byte, 12-byte IV, 16-byte GCM tag, ciphertext; null for SearXNG. */
  @Column('bytea', { nullable: true })
  credentialCipher!: Buffer | null;

  @Column('varchar', { length: 4, nullable: true })
  credentialLast4!: string | null;

  /** What 1,000 searches cost the caller, in micro-cents (PostgreSQL's bigint, read as text). */
  @Column('bigint', { name: 'price_per_1000_micro_cents' })
  pricePer1000MicroCents!: string;

  @Column('varchar', { length: 40 })
  createdBy!: string;

  @Column('timestamptz')
  createdAt!: Date;

  @Column('timestamptz')
  updatedAt!: Date;
}
