import { MigrationInterface, QueryRunner } from 'typeorm';

export class PromptInbox1795295605652 implements MigrationInterface {
  name = 'PromptInbox1795295605652';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "session_drain" ("session_id" character varying(64) COLLATE "C" NOT NULL, "time_started" bigint NOT NULL, CONSTRAINT "PK_0a223e69c8ae30baaa306d80f5d" PRIMARY KEY ("session_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "session_inbox" ("seq" bigint GENERATED ALWAYS AS IDENTITY NOT NULL, "session_id" character varying(64) COLLATE "C" NOT NULL, "id" character varying(64) COLLATE "C" NOT NULL, "type" character varying(16) NOT NULL, "delivery" character varying(8) NOT NULL, "payload" jsonb NOT NULL, "time_created" bigint NOT NULL, "time_taken" bigint, CONSTRAINT "PK_c4fc897c0f199c676787a1bbae5" PRIMARY KEY ("seq"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "session_inbox_waiting_idx" ON "session_inbox" ("session_id", "seq") WHERE time_taken IS NULL`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "session_inbox_id_idx" ON "session_inbox" ("session_id", "id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "session_drain" ADD CONSTRAINT "FK_0a223e69c8ae30baaa306d80f5d" FOREIGN KEY ("session_id") REFERENCES "session"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "session_inbox" ADD CONSTRAINT "FK_a600c5157934094f22d37de5d9a" FOREIGN KEY ("session_id") REFERENCES "session"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "session_inbox" DROP CONSTRAINT "FK_a600c5157934094f22d37de5d9a"`);
    await queryRunner.query(`ALTER TABLE "session_drain" DROP CONSTRAINT "FK_0a223e69c8ae30baaa306d80f5d"`);
    await queryRunner.query(`DROP INDEX "public"."session_inbox_id_idx"`);
    await queryRunner.query(`DROP INDEX "public"."session_inbox_waiting_idx"`);
    await queryRunner.query(`DROP TABLE "session_inbox"`);
    await queryRunner.query(`DROP TABLE "session_drain"`);
  }
}
