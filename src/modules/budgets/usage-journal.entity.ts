import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * How far a process's usage journal is written (UsageJournal): the sequence number of the last record its batches
 * wrote, updated in the same statement as each batch, so a journal left by a killed process is written once.
 */
@Entity('usage_journal')
export class UsageJournalEntity {
  @PrimaryColumn('varchar', { length: 40 })
  nodeId!: string;

  @Column('bigint')
  writtenSeq!: string;

  @Column('timestamptz')
  updatedAt!: Date;
}
