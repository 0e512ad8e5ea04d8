import { MigrationInterface, QueryRunner } from 'typeorm';

export class BudgetHoldLeases1795710575594 implements MigrationInterface {
  name = 'BudgetHoldLeases1795710575594';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "gateway_node" ("id" character varying(40) NOT NULL, "started_at" TIMESTAMP WITH TIME ZONE NOT NULL, "heartbeat_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_1e681ffdac9393fc35fbc09d64d" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "budget_hold" ("node_id" character varying(40) NOT NULL, "workspace_id" character varying(40) NOT NULL, "member_id" character varying(40) NOT NULL, "month" date NOT NULL, "member_held_micro_cents" bigint NOT NULL DEFAULT '0', "workspace_held_micro_cents" bigint NOT NULL DEFAULT '0', CONSTRAINT "PK_330e41b303351c08d8eaf5b098e" PRIMARY KEY ("node_id", "workspace_id", "member_id"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "budget_hold"`);
    await queryRunner.query(`DROP TABLE "gateway_node"`);
  }
}
