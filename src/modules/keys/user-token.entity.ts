import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { HashedSecretColumns } from './hashed-secret.columns';

/** A token that acts as a person (`oc_ut_…`), in the workspace named by `x-org-id`. Stored as an HMAC. */
@Entity('user_token')
export class UserTokenEntity extends HashedSecretColumns {
  @PrimaryColumn('varchar', { length: 40 })
  id!: string;

  @Index()
  @Column('varchar', { length: 40 })
  userId!: string;
}
