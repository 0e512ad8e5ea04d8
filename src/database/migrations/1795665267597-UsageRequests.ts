import { MigrationInterface, QueryRunner } from 'typeorm';

export class UsageRequests1795665267597 implements MigrationInterface {
  name = 'UsageRequests1795665267597';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "usage" ADD "requests" integer NOT NULL DEFAULT '1'`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "usage" DROP COLUMN "requests"`);
  }
}
