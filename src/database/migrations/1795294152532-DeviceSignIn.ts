import { MigrationInterface, QueryRunner } from 'typeorm';

export class DeviceSignIn1795294152532 implements MigrationInterface {
  name = 'DeviceSignIn1795294152532';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "device_token" ("id" character varying(40) NOT NULL, "session_id" character varying(40) NOT NULL, "kind" character varying(10) NOT NULL, "token_hash" character(64) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "UQ_2b12cf90541e501f1f8036a6a25" UNIQUE ("token_hash"), CONSTRAINT "PK_592ce89b9ea1a268d6140f60422" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_54b5ad4d0c2268a01ca2309658" ON "device_token" ("session_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "device_session" ("id" character varying(40) NOT NULL, "user_id" character varying(40) NOT NULL, "client_id" character varying(100) NOT NULL, "workspace_id" character varying(40), "user_agent" character varying(200), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "last_used_at" TIMESTAMP WITH TIME ZONE, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "revoked_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_edd47f6f4a3c2d3ec98be8d7ed5" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_fbf908bbfa69f8aee4772e4b28" ON "device_session" ("user_id") `);
    await queryRunner.query(
      `CREATE TABLE "device_authorization" ("id" character varying(40) NOT NULL, "device_code_hash" character(64) NOT NULL, "user_code" character(8) NOT NULL, "client_id" character varying(100) NOT NULL, "supports_org_scope" boolean NOT NULL, "status" character varying(20) NOT NULL, "poll_interval" integer NOT NULL, "last_polled_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "user_id" character varying(40), "workspace_id" character varying(40), "decided_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "UQ_4229a0919a8e1572b26f6eaa8d9" UNIQUE ("device_code_hash"), CONSTRAINT "PK_e360bd227c20f47c8c1c7ccbaec" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_034ee0ee64f90a11fbff3eee17" ON "device_authorization" ("expires_at") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_device_authorization_pending_user_code" ON "device_authorization" ("user_code") WHERE "status" = 'pending'`,
    );
    await queryRunner.query(
      `CREATE TABLE "device_code_attempt" ("user_id" character varying(40) NOT NULL, "window_start" TIMESTAMP WITH TIME ZONE NOT NULL, "failures" integer NOT NULL, CONSTRAINT "PK_24fd30124433fe1e52c75cf0a44" PRIMARY KEY ("user_id"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "device_code_attempt"`);
    await queryRunner.query(`DROP INDEX "public"."uq_device_authorization_pending_user_code"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_034ee0ee64f90a11fbff3eee17"`);
    await queryRunner.query(`DROP TABLE "device_authorization"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_fbf908bbfa69f8aee4772e4b28"`);
    await queryRunner.query(`DROP TABLE "device_session"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_54b5ad4d0c2268a01ca2309658"`);
    await queryRunner.query(`DROP TABLE "device_token"`);
  }
}
