import { MigrationInterface, QueryRunner } from 'typeorm';

export class ConfigAndBudgets1795294130702 implements MigrationInterface {
  name = 'ConfigAndBudgets1795294130702';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "workspace_config" ("workspace_id" character varying(40) NOT NULL, "document" jsonb NOT NULL, "rendered" text NOT NULL, "etag" character varying(64) NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_by" character varying(40), CONSTRAINT "PK_edcdaaa768d68abf014c210e7c2" PRIMARY KEY ("workspace_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "workspace_budget" ("workspace_id" character varying(40) NOT NULL, "default_limit_micro_cents" bigint, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_by" character varying(40), CONSTRAINT "PK_356ef34526cf2561f9613ab23fc" PRIMARY KEY ("workspace_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "usage" ("id" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "workspace_id" character varying(40) NOT NULL, "member_id" character varying(40) NOT NULL, "key_id" character varying(40), "model" character varying(200) NOT NULL, "input_tokens" integer NOT NULL, "output_tokens" integer NOT NULL, "cache_read_tokens" integer NOT NULL DEFAULT '0', "cache_write_tokens" integer NOT NULL DEFAULT '0', "cost_micro_cents" bigint NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_7bc33e71ab6c3b71eac72950b44" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_8bf80f6ac2b68b3f70091e0633" ON "usage" ("workspace_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "member_spend" ("workspace_id" character varying(40) NOT NULL, "member_id" character varying(40) NOT NULL, "month" date NOT NULL, "spent_micro_cents" bigint NOT NULL, CONSTRAINT "PK_4147b2f8165383d537e3b531e7d" PRIMARY KEY ("workspace_id", "member_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "member_budget" ("workspace_id" character varying(40) NOT NULL, "member_id" character varying(40) NOT NULL, "limit_micro_cents" bigint NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_by" character varying(40), CONSTRAINT "PK_4c21505679ebaa8267927844256" PRIMARY KEY ("workspace_id", "member_id"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "member_budget"`);
    await queryRunner.query(`DROP TABLE "member_spend"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_8bf80f6ac2b68b3f70091e0633"`);
    await queryRunner.query(`DROP TABLE "usage"`);
    await queryRunner.query(`DROP TABLE "workspace_budget"`);
    await queryRunner.query(`DROP TABLE "workspace_config"`);
  }
}
