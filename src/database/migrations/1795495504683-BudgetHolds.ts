import { MigrationInterface, QueryRunner } from 'typeorm';

export class BudgetHolds1795495504683 implements MigrationInterface {
  name = 'BudgetHolds1795495504683';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "member_spend" ADD "held_micro_cents" bigint NOT NULL DEFAULT '0'`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "member_spend" DROP COLUMN "held_micro_cents"`);
  }
}
