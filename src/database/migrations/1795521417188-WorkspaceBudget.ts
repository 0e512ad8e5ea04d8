import { MigrationInterface, QueryRunner } from 'typeorm';

export class WorkspaceBudget1795521417188 implements MigrationInterface {
  name = 'WorkspaceBudget1795521417188';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "workspace_spend" ("workspace_id" character varying(40) NOT NULL, "month" date NOT NULL, "spent_micro_cents" bigint NOT NULL DEFAULT '0', "held_micro_cents" bigint NOT NULL DEFAULT '0', CONSTRAINT "PK_200cd44c8f548759585048fc3c3" PRIMARY KEY ("workspace_id"))`,
    );
    await queryRunner.query(`ALTER TABLE "workspace_budget" ADD "monthly_limit_micro_cents" bigint`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "workspace_budget" DROP COLUMN "monthly_limit_micro_cents"`);
    await queryRunner.query(`DROP TABLE "workspace_spend"`);
  }
}
