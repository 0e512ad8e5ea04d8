import { MigrationInterface, QueryRunner } from 'typeorm';

export class RequestLog1795712689980 implements MigrationInterface {
  name = 'RequestLog1795712689980';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "request_log" ("id" character varying(40) NOT NULL, "workspace_id" character varying(40) NOT NULL, "member_id" character varying(40) NOT NULL, "key_id" character varying(40), "request_id" character varying(100) NOT NULL, "route" character varying(100) NOT NULL, "model" character varying(200) NOT NULL, "served_by" character varying(200), "status" integer NOT NULL, "outcome" character varying(30) NOT NULL, "input_tokens" integer NOT NULL, "output_tokens" integer NOT NULL, "cost_micro_cents" bigint NOT NULL, "duration_ms" integer NOT NULL, "ttfb_ms" integer, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_ae393b42f50b0399df4c90160d6" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_6068f9fd0a625a051ea9c0dc51" ON "request_log" ("workspace_id", "id") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_6068f9fd0a625a051ea9c0dc51"`);
    await queryRunner.query(`DROP TABLE "request_log"`);
  }
}
