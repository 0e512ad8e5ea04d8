import { MigrationInterface, QueryRunner } from 'typeorm';

export class Connections1795519920047 implements MigrationInterface {
  name = 'Connections1795519920047';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "connection" ("id" character varying(40) NOT NULL, "workspace_id" character varying(40) NOT NULL, "name" character varying(200) NOT NULL, "base_url" character varying(2048) NOT NULL, "schema" character varying(32) NOT NULL, "auth_mode" character varying(16) NOT NULL, "auth_header" character varying(100), "credential_cipher" bytea NOT NULL, "credential_last4" character varying(4), "models" jsonb NOT NULL, "created_by" character varying(40) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_be611ce8b8cf439091c82a334b2" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_f71a17b6d27ade5c58816355ef" ON "connection" ("workspace_id") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_f71a17b6d27ade5c58816355ef"`);
    await queryRunner.query(`DROP TABLE "connection"`);
  }
}
