import { MigrationInterface, QueryRunner } from 'typeorm';

export class PasswordReset1795969459230 implements MigrationInterface {
  name = 'PasswordReset1795969459230';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "password_reset" ("id" character varying(40) NOT NULL, "user_id" character varying(40) NOT NULL, "token_hash" character(64) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "UQ_0309de62e0cb0960ebb2cb65c95" UNIQUE ("token_hash"), CONSTRAINT "PK_8515e60a2cc41584fa4784f52ce" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_ad88301fdc79593dd222268a8b" ON "password_reset" ("user_id") `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_ad88301fdc79593dd222268a8b"`);
    await queryRunner.query(`DROP TABLE "password_reset"`);
  }
}
