import { MigrationInterface, QueryRunner } from 'typeorm';

export class Console1795292108662 implements MigrationInterface {
  name = 'Console1795292108662';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "workspace" ("id" character varying(40) NOT NULL, "name" character varying(200) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "deleted_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_ca86b6f9b3be5fe26d307d09b49" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "membership" ("workspace_id" character varying(40) NOT NULL, "user_id" character varying(40) NOT NULL, "role" character varying(10) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_c812b1092cf66d72ddac549a6b4" PRIMARY KEY ("workspace_id", "user_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_e9c72e8d29784031c96f5c6af8" ON "membership" ("user_id") `);
    await queryRunner.query(
      `CREATE TABLE "invite" ("id" character varying(40) NOT NULL, "workspace_id" character varying(40) NOT NULL, "email" character varying(320) NOT NULL, "role" character varying(10) NOT NULL, "token_hash" character(64) NOT NULL, "invited_by" character varying(40) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "accepted_at" TIMESTAMP WITH TIME ZONE, "revoked_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "UQ_f04f011ab67d6ff726f43b5ea05" UNIQUE ("token_hash"), CONSTRAINT "PK_fc9fa190e5a3c5d80604a4f63e1" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_0c968fb86d0fe7cdf20595db3a" ON "invite" ("workspace_id", "email") `,
    );
    await queryRunner.query(
      `CREATE TABLE "user_token" ("id" character varying(40) NOT NULL, "public_id" character(12) NOT NULL, "secret_hash" character(64) NOT NULL, "user_id" character varying(40) NOT NULL, "name" character varying(200) NOT NULL, "last4" character(4) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE, "revoked_at" TIMESTAMP WITH TIME ZONE, "last_used_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "UQ_565b81717cff1a68c54979958e3" UNIQUE ("public_id"), CONSTRAINT "PK_48cb6b5c20faa63157b3c1baf7f" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_79ac751931054ef450a2ee4777" ON "user_token" ("user_id") `);
    await queryRunner.query(
      `CREATE TABLE "service_account" ("id" character varying(40) NOT NULL, "workspace_id" character varying(40) NOT NULL, "name" character varying(200) NOT NULL, "created_by" character varying(40) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "deleted_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_2efb318de61f6487f806627dbd2" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_97e0016162687282d312c9642d" ON "service_account" ("workspace_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "api_key" ("id" character varying(40) NOT NULL, "public_id" character(12) NOT NULL, "secret_hash" character(64) NOT NULL, "workspace_id" character varying(40) NOT NULL, "service_account_id" character varying(40), "user_id" character varying(40), "name" character varying(200) NOT NULL, "permission" character varying(10) NOT NULL, "last4" character(4) NOT NULL, "created_by" character varying(40) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE, "revoked_at" TIMESTAMP WITH TIME ZONE, "last_used_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "UQ_77600c71158bb7c002a8bfd98bb" UNIQUE ("public_id"), CONSTRAINT "PK_b1bd840641b8acbaad89c3d8d11" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_a5d5deb6277ba051a459916039" ON "api_key" ("service_account_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_d7328ff305b1172e85f45c2db1" ON "api_key" ("workspace_id", "user_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "users" ("id" character varying(40) NOT NULL, "email" character varying(320) NOT NULL, "name" character varying(200) NOT NULL, "password_hash" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "UQ_97672ac88f789774dd47f7c8be3" UNIQUE ("email"), CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "login_throttle" ("key" character varying(400) NOT NULL, "window_start" TIMESTAMP WITH TIME ZONE NOT NULL, "failures" integer NOT NULL, CONSTRAINT "PK_14c03bac82292a8310c54cb98d0" PRIMARY KEY ("key"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "console_session" ("id" character varying(40) NOT NULL, "token_hash" character(64) NOT NULL, "user_id" character varying(40) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "UQ_d2489983f3903a6c92782d0d0e1" UNIQUE ("token_hash"), CONSTRAINT "PK_de017bbd4b96ce481ef2729ad1a" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_86396e1b9cdd87aa5e1e979bd6" ON "console_session" ("user_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "audit_entry" ("id" character varying(40) NOT NULL, "workspace_id" character varying(40), "actor_type" character varying(20) NOT NULL, "actor_id" character varying(40), "action" character varying(60) NOT NULL, "target_type" character varying(30) NOT NULL, "target_id" character varying(40) NOT NULL, "details" jsonb NOT NULL DEFAULT '{}', "source_address" character varying(64), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_58a130a4b9da189f46ba2a01801" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_77fe2e0edb265a43e733105151" ON "audit_entry" ("workspace_id", "id") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_77fe2e0edb265a43e733105151"`);
    await queryRunner.query(`DROP TABLE "audit_entry"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_86396e1b9cdd87aa5e1e979bd6"`);
    await queryRunner.query(`DROP TABLE "console_session"`);
    await queryRunner.query(`DROP TABLE "login_throttle"`);
    await queryRunner.query(`DROP TABLE "users"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_d7328ff305b1172e85f45c2db1"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_a5d5deb6277ba051a459916039"`);
    await queryRunner.query(`DROP TABLE "api_key"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_97e0016162687282d312c9642d"`);
    await queryRunner.query(`DROP TABLE "service_account"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_79ac751931054ef450a2ee4777"`);
    await queryRunner.query(`DROP TABLE "user_token"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_0c968fb86d0fe7cdf20595db3a"`);
    await queryRunner.query(`DROP TABLE "invite"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_e9c72e8d29784031c96f5c6af8"`);
    await queryRunner.query(`DROP TABLE "membership"`);
    await queryRunner.query(`DROP TABLE "workspace"`);
  }
}
