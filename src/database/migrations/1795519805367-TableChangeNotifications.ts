import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Written by hand (TypeORM does not generate triggers): a change to a table that in-process caches read is
 * announced with pg_notify('outpost_table_changes', <table>) when its transaction commits (see TableChanges).
 * Statement-level triggers, and for UPDATE only on the columns that matter, so "last used" writes stay quiet.
 */
const WATCHED: Array<{ table: string; columns: string[] | null }> = [
  { table: 'api_key', columns: ['revoked_at', 'expires_at', 'permission'] },
  { table: 'user_token', columns: ['revoked_at', 'expires_at'] },
  { table: 'device_token', columns: null },
  { table: 'device_session', columns: ['revoked_at', 'workspace_id', 'user_id'] },
  { table: 'service_account', columns: ['deleted_at', 'name'] },
  { table: 'membership', columns: ['role', 'user_id', 'workspace_id'] },
  { table: 'workspace', columns: ['deleted_at'] },
  { table: 'users', columns: ['email', 'name'] },
  { table: 'workspace_config', columns: null },
];

export class TableChangeNotifications1795519805367 implements MigrationInterface {
  name = 'TableChangeNotifications1795519805367';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE FUNCTION outpost_table_changed() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN PERFORM pg_notify('outpost_table_changes', TG_TABLE_NAME); RETURN NULL; END $$`,
    );
    for (const { table, columns } of WATCHED) {
      const update = columns ? `UPDATE OF ${columns.map((column) => `"${column}"`).join(', ')}` : 'UPDATE';
      await queryRunner.query(
        `CREATE TRIGGER "${table}_changed" AFTER INSERT OR ${update} OR DELETE OR TRUNCATE ON "${table}"
         FOR EACH STATEMENT EXECUTE FUNCTION outpost_table_changed()`,
      );
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const { table } of WATCHED) await queryRunner.query(`DROP TRIGGER "${table}_changed" ON "${table}"`);
    await queryRunner.query('DROP FUNCTION outpost_table_changed()');
  }
}
