import { MigrationInterface, QueryRunner } from 'typeorm';

export class RequestLogStream1795933702386 implements MigrationInterface {
  name = 'RequestLogStream1795933702386';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "request_log_stream" ("id" character varying(40) NOT NULL, "node_id" character varying(40) NOT NULL, "workspace_id" character varying(40) NOT NULL, "member_id" character varying(40) NOT NULL, "key_id" character varying(40), "request_id" character varying(100) NOT NULL, "route" character varying(100) NOT NULL, "model" character varying(200) NOT NULL, "served_by" character varying(200), "status" integer NOT NULL, "input_tokens" integer NOT NULL, "output_tokens" integer NOT NULL, "cost_micro_cents" bigint NOT NULL, "ttfb_ms" integer, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_be133ce3e2d6b13322947055a8d" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_09ee5c4c8821888ffbd5c7ff5f" ON "request_log_stream" ("node_id") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_09ee5c4c8821888ffbd5c7ff5f"`);
    await queryRunner.query(`DROP TABLE "request_log_stream"`);
  }
}
