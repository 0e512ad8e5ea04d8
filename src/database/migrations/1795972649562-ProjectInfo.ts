import { MigrationInterface, QueryRunner } from 'typeorm';

export class ProjectInfo1795972649562 implements MigrationInterface {
  name = 'ProjectInfo1795972649562';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "project_info" ("id" character varying(200) COLLATE "C" NOT NULL, "name" character varying(200), "icon" jsonb, "commands" jsonb, "time_created" bigint NOT NULL, "time_updated" bigint NOT NULL, CONSTRAINT "PK_01154e42cae756dadbc8553b8cb" PRIMARY KEY ("id"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "project_info"`);
  }
}
