import { MigrationInterface, QueryRunner } from 'typeorm';

export class SecretFingerprint1795757574407 implements MigrationInterface {
  name = 'SecretFingerprint1795757574407';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "secret_fingerprint" ("id" smallint NOT NULL, "fingerprint" character varying(64) NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "CHK_a0d6aead52bb7181beb9e27e61" CHECK ("id" = 1), CONSTRAINT "PK_3fb3423cf9c3b28a28fdd73d4d2" PRIMARY KEY ("id"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "secret_fingerprint"`);
  }
}
