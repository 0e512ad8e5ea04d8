import { MigrationInterface, QueryRunner } from 'typeorm';

export class UsageJournal1795733885404 implements MigrationInterface {
  name = 'UsageJournal1795733885404';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "usage_journal" ("node_id" character varying(40) NOT NULL, "written_seq" bigint NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_5a249ae1a962b4ca7aa084823e7" PRIMARY KEY ("node_id"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "usage_journal"`);
  }
}
