import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Written by hand, as TableChangeNotifications: budget changes are announced too, so the gateway can cache
 * which members have no limit at all (and skip the hold for them).
 */
const WATCHED = ['member_budget', 'workspace_budget'];

export class BudgetChangeNotifications1795521417190 implements MigrationInterface {
  name = 'BudgetChangeNotifications1795521417190';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of WATCHED) {
      await queryRunner.query(
        `CREATE TRIGGER "${table}_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "${table}"
         FOR EACH STATEMENT EXECUTE FUNCTION outpost_table_changed()`,
      );
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of WATCHED) await queryRunner.query(`DROP TRIGGER "${table}_changed" ON "${table}"`);
  }
}
