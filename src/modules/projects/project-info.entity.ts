import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintNumber } from '../sessions/bigint.transformer';

/**
 * What a person set about a project (opencode's `project.update`): its name, icon and start-up command. A
 * project itself is found from its directory (the git root commit); a row exists once something was set.
 */
@Entity()
export class ProjectInfoEntity {
  @PrimaryColumn({ type: 'varchar', length: 200, collation: 'C' })
  id!: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  name!: string | null;

  /** `{ url?, override?, color? }` */
  @Column({ type: 'jsonb', nullable: true })
  icon!: Record<string, string> | null;

  /** `{ start? }` */
  @Column({ type: 'jsonb', nullable: true })
  commands!: Record<string, string> | null;

  @Column({ type: 'bigint', transformer: bigintNumber })
  timeCreated!: number;

  @Column({ type: 'bigint', transformer: bigintNumber })
  timeUpdated!: number;
}
