import { MigrationInterface, QueryRunner } from 'typeorm';

export class KeyBudget1795722133137 implements MigrationInterface {
  name = 'KeyBudget1795722133137';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_key" ADD "monthly_budget_micro_cents" bigint`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_key" DROP COLUMN "monthly_budget_micro_cents"`);
  }
}
