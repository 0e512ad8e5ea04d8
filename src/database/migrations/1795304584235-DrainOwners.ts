import { MigrationInterface, QueryRunner } from 'typeorm';

export class DrainOwners1795304584235 implements MigrationInterface {
  name = 'DrainOwners1795304584235';

  public async up(queryRunner: QueryRunner): Promise<void> {
    // Generated, then edited: a row a stopped server left behind gets no owner and a lease that has passed,
    // so the first sweep closes it as interrupted; new rows always name both.
    await queryRunner.query(
      `ALTER TABLE "session_drain" ADD "owner" character varying(64) COLLATE "C" NOT NULL DEFAULT ''`,
    );
    await queryRunner.query(`ALTER TABLE "session_drain" ADD "lease_expires" bigint NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "session_drain" ALTER COLUMN "owner" DROP DEFAULT`);
    await queryRunner.query(`ALTER TABLE "session_drain" ALTER COLUMN "lease_expires" DROP DEFAULT`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "session_drain" DROP COLUMN "lease_expires"`);
    await queryRunner.query(`ALTER TABLE "session_drain" DROP COLUMN "owner"`);
  }
}
