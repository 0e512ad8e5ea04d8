import { MigrationInterface, QueryRunner } from 'typeorm';

export class SessionStatsIndexes1795295623296 implements MigrationInterface {
  name = 'SessionStatsIndexes1795295623296';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "session_message_session_created_idx" ON "session_message" ("session_id", "time_created") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."session_message_session_created_idx"`);
  }
}
