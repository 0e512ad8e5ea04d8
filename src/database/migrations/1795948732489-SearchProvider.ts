import { MigrationInterface, QueryRunner } from 'typeorm';

export class SearchProvider1795948732489 implements MigrationInterface {
  name = 'SearchProvider1795948732489';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "search_provider" ("id" character varying(40) NOT NULL, "workspace_id" character varying(40) NOT NULL, "name" character varying(200) NOT NULL, "kind" character varying(16) NOT NULL, "base_url" character varying(2048), "credential_cipher" bytea, "credential_last4" character varying(4), "price_per_1000_micro_cents" bigint NOT NULL, "created_by" character varying(40) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_b6a75d2b81d8dc47b2ab3bacd2c" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_41a8f2350525e169d9e63938db" ON "search_provider" ("workspace_id") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_41a8f2350525e169d9e63938db"`);
    await queryRunner.query(`DROP TABLE "search_provider"`);
  }
}
