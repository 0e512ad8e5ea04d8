import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Device user codes are stored as keyed hashes. Requests in flight (ten minutes at most) held their codes in
 * plain text and cannot be converted: they are dropped, and those devices ask for a new code.
 */
export class DeviceUserCodeHash1795493262493 implements MigrationInterface {
  name = 'DeviceUserCodeHash1795493262493';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."uq_device_authorization_pending_user_code"`);
    await queryRunner.query(`DELETE FROM "device_authorization"`);
    await queryRunner.query(`ALTER TABLE "device_authorization" DROP COLUMN "user_code"`);
    await queryRunner.query(`ALTER TABLE "device_authorization" ADD "user_code_hash" character(64) NOT NULL`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_device_authorization_pending_user_code" ON "device_authorization" ("user_code_hash") WHERE "status" = 'pending'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."uq_device_authorization_pending_user_code"`);
    await queryRunner.query(`DELETE FROM "device_authorization"`);
    await queryRunner.query(`ALTER TABLE "device_authorization" DROP COLUMN "user_code_hash"`);
    await queryRunner.query(`ALTER TABLE "device_authorization" ADD "user_code" character(8) NOT NULL`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_device_authorization_pending_user_code" ON "device_authorization" ("user_code") WHERE ((status)::text = 'pending'::text)`,
    );
  }
}
