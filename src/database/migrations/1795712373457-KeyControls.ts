import { MigrationInterface, QueryRunner } from 'typeorm';

export class KeyControls1795712373457 implements MigrationInterface {
  name = 'KeyControls1795712373457';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_key" ADD "requests_per_minute" integer`);
    await queryRunner.query(`ALTER TABLE "api_key" ADD "tokens_per_minute" integer`);
    await queryRunner.query(`ALTER TABLE "api_key" ADD "allowed_models" jsonb`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "api_key" DROP COLUMN "allowed_models"`);
    await queryRunner.query(`ALTER TABLE "api_key" DROP COLUMN "tokens_per_minute"`);
    await queryRunner.query(`ALTER TABLE "api_key" DROP COLUMN "requests_per_minute"`);
  }
}
