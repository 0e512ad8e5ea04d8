import { MigrationInterface, QueryRunner } from 'typeorm';

export class InstanceAccess1795291853015 implements MigrationInterface {
  name = 'InstanceAccess1795291853015';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "pairing_code" ("code_hash" character(64) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_20b97553f7f0f1cb3d228dbb194" PRIMARY KEY ("code_hash"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "instance_session_token" ("token_hash" character(64) NOT NULL, "password_fingerprint" character(64) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "last_used_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_a31671d483edd6edf7871829968" PRIMARY KEY ("token_hash"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "instance_session_token"`);
    await queryRunner.query(`DROP TABLE "pairing_code"`);
  }
}
