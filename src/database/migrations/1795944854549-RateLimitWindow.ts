import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `login_throttle` held every shared rate limit (the gateway's per-key requests and tokens too), so it is
 * `rate_limit_window` now, its `failures` `hits`, and each row says when its window ends (`expires_at`), for the
 * sweep that deletes ended windows. Generated as a new table, then edited to rename the old one so the counts
 * running at the upgrade (failed sign-ins among them) are kept; a row of the old table gets a day, the longest
 * window a limit may have (OUTPOST_AUTH_FAILURE_WINDOW at most).
 */
export class RateLimitWindow1795944854549 implements MigrationInterface {
  name = 'RateLimitWindow1795944854549';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "login_throttle" RENAME TO "rate_limit_window"`);
    await queryRunner.query(`ALTER TABLE "rate_limit_window" RENAME COLUMN "failures" TO "hits"`);
    await queryRunner.query(
      `ALTER TABLE "rate_limit_window" RENAME CONSTRAINT "PK_14c03bac82292a8310c54cb98d0" TO "PK_abed1cba8b3f195c0ed701bafb3"`,
    );
    await queryRunner.query(`ALTER TABLE "rate_limit_window" ADD "expires_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `UPDATE "rate_limit_window" SET "expires_at" = "window_start" + interval '1 day'`,
    );
    await queryRunner.query(`ALTER TABLE "rate_limit_window" ALTER COLUMN "expires_at" SET NOT NULL`);
    await queryRunner.query(
      `CREATE INDEX "IDX_2b28d43acc9f49c56dd0a05832" ON "rate_limit_window" ("expires_at") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_2b28d43acc9f49c56dd0a05832"`);
    await queryRunner.query(`ALTER TABLE "rate_limit_window" DROP COLUMN "expires_at"`);
    await queryRunner.query(
      `ALTER TABLE "rate_limit_window" RENAME CONSTRAINT "PK_abed1cba8b3f195c0ed701bafb3" TO "PK_14c03bac82292a8310c54cb98d0"`,
    );
    await queryRunner.query(`ALTER TABLE "rate_limit_window" RENAME COLUMN "hits" TO "failures"`);
    await queryRunner.query(`ALTER TABLE "rate_limit_window" RENAME TO "login_throttle"`);
  }
}
