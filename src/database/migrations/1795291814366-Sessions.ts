import { MigrationInterface, QueryRunner } from 'typeorm';

export class Sessions1795291814366 implements MigrationInterface {
  name = 'Sessions1795291814366';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "session" ("id" character varying(64) COLLATE "C" NOT NULL, "parent_id" character varying(64) COLLATE "C", "fork" jsonb, "project_id" character varying(200) NOT NULL, "directory" text NOT NULL, "subpath" text NOT NULL DEFAULT '', "agent" character varying(200), "model" jsonb, "title" text NOT NULL, "metadata" jsonb, "permissions" jsonb, "cost" bigint NOT NULL DEFAULT '0', "tokens_input" bigint NOT NULL DEFAULT '0', "tokens_output" bigint NOT NULL DEFAULT '0', "tokens_reasoning" bigint NOT NULL DEFAULT '0', "tokens_cache_read" bigint NOT NULL DEFAULT '0', "tokens_cache_write" bigint NOT NULL DEFAULT '0', "outcome" character varying(20), "time_created" bigint NOT NULL, "time_updated" bigint NOT NULL, "time_idle" bigint, "time_viewed" bigint, "time_archived" bigint, CONSTRAINT "PK_f55da76ac1c3ac420f444d2ff11" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "session_project_updated_idx" ON "session" ("project_id", "time_updated", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "session_directory_updated_idx" ON "session" ("directory", "time_updated", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "session_parent_updated_idx" ON "session" ("parent_id", "time_updated", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "session_root_updated_idx" ON "session" ("time_updated", "id") WHERE parent_id IS NULL`,
    );
    await queryRunner.query(`CREATE INDEX "session_updated_idx" ON "session" ("time_updated", "id") `);
    await queryRunner.query(
      `CREATE TABLE "session_message" ("session_id" character varying(64) COLLATE "C" NOT NULL, "id" character varying(64) COLLATE "C" NOT NULL, "type" character varying(32) NOT NULL, "data" jsonb NOT NULL DEFAULT '{}', "time_created" bigint NOT NULL, "time_completed" bigint, "tokens_input" bigint, "tokens_output" bigint, "tokens_reasoning" bigint, "tokens_cache_read" bigint, "tokens_cache_write" bigint, "cost" bigint, CONSTRAINT "PK_89e7ee495ec48c6e5bcb55351e8" PRIMARY KEY ("session_id", "id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "session_message_created_idx" ON "session_message" ("time_created") `,
    );
    await queryRunner.query(
      `ALTER TABLE "session" ADD CONSTRAINT "FK_60efd9bc331e16fa36c1f65475f" FOREIGN KEY ("parent_id") REFERENCES "session"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "session_message" ADD CONSTRAINT "FK_68ab667ce9437350d8ecd84501b" FOREIGN KEY ("session_id") REFERENCES "session"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "session_message" DROP CONSTRAINT "FK_68ab667ce9437350d8ecd84501b"`);
    await queryRunner.query(`ALTER TABLE "session" DROP CONSTRAINT "FK_60efd9bc331e16fa36c1f65475f"`);
    await queryRunner.query(`DROP INDEX "public"."session_message_created_idx"`);
    await queryRunner.query(`DROP TABLE "session_message"`);
    await queryRunner.query(`DROP INDEX "public"."session_updated_idx"`);
    await queryRunner.query(`DROP INDEX "public"."session_root_updated_idx"`);
    await queryRunner.query(`DROP INDEX "public"."session_parent_updated_idx"`);
    await queryRunner.query(`DROP INDEX "public"."session_directory_updated_idx"`);
    await queryRunner.query(`DROP INDEX "public"."session_project_updated_idx"`);
    await queryRunner.query(`DROP TABLE "session"`);
  }
}
