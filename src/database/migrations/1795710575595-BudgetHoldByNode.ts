import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Written by hand (TypeORM does not generate functions): `outpost_hold` as before (migration BudgetHoldFunction),
 * now also recording each hold against the gateway process that took it (`budget_hold`, keyed by its lease in
 * `gateway_node`), so the holds of a process that dies are given back by a live one (HoldLease).
 */
export class BudgetHoldByNode1795710575595 implements MigrationInterface {
  name = 'BudgetHoldByNode1795710575595';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP FUNCTION outpost_hold(varchar, varchar, date, bigint)');
    await queryRunner.query(`
      CREATE FUNCTION outpost_hold_record(p_node varchar, p_workspace varchar, p_member varchar, p_month date,
                                          p_member_amount bigint, p_workspace_amount bigint)
      RETURNS void LANGUAGE sql AS $$
        INSERT INTO budget_hold AS h (node_id, workspace_id, member_id, month, member_held_micro_cents,
                                      workspace_held_micro_cents)
        VALUES (p_node, p_workspace, p_member, p_month, p_member_amount, p_workspace_amount)
        ON CONFLICT (node_id, workspace_id, member_id) DO UPDATE SET
          member_held_micro_cents = CASE WHEN h.month < EXCLUDED.month THEN 0 ELSE h.member_held_micro_cents END
                                    + EXCLUDED.member_held_micro_cents,
          workspace_held_micro_cents = CASE WHEN h.month < EXCLUDED.month THEN 0 ELSE h.workspace_held_micro_cents END
                                       + EXCLUDED.workspace_held_micro_cents,
          month = GREATEST(h.month, EXCLUDED.month)
      $$`);
    await queryRunner.query(`
      CREATE FUNCTION outpost_hold(p_node varchar, p_workspace varchar, p_member varchar, p_month date, p_amount bigint)
      RETURNS text LANGUAGE plpgsql AS $$
      DECLARE
        member_limit bigint;
        workspace_limit bigint;
        rows_held int;
      BEGIN
        PERFORM set_config('synchronous_commit', 'off', true);
        SELECT COALESCE(b.limit_micro_cents, d.default_limit_micro_cents), d.monthly_limit_micro_cents
          INTO member_limit, workspace_limit
          FROM (SELECT 1) one
          LEFT JOIN member_budget b ON b.workspace_id = p_workspace AND b.member_id = p_member
          LEFT JOIN workspace_budget d ON d.workspace_id = p_workspace;

        INSERT INTO member_spend AS s (workspace_id, member_id, month, spent_micro_cents, held_micro_cents)
        SELECT p_workspace, p_member, p_month, 0, p_amount WHERE member_limit IS NULL OR p_amount <= member_limit
        ON CONFLICT (workspace_id, member_id) DO UPDATE SET
          spent_micro_cents = CASE WHEN s.month < EXCLUDED.month THEN 0 ELSE s.spent_micro_cents END,
          held_micro_cents = CASE WHEN s.month < EXCLUDED.month THEN 0 ELSE s.held_micro_cents END
                             + EXCLUDED.held_micro_cents,
          month = GREATEST(s.month, EXCLUDED.month)
        WHERE member_limit IS NULL
           OR CASE WHEN s.month < EXCLUDED.month THEN 0 ELSE s.spent_micro_cents + s.held_micro_cents END
              + EXCLUDED.held_micro_cents <= member_limit;
        GET DIAGNOSTICS rows_held = ROW_COUNT;
        IF rows_held = 0 THEN RETURN 'member'; END IF;
        IF workspace_limit IS NULL THEN
          PERFORM outpost_hold_record(p_node, p_workspace, p_member, p_month, p_amount, 0);
          RETURN 'held';
        END IF;

        INSERT INTO workspace_spend AS s (workspace_id, month, spent_micro_cents, held_micro_cents)
        SELECT p_workspace, p_month, 0, p_amount WHERE p_amount <= workspace_limit
        ON CONFLICT (workspace_id) DO UPDATE SET
          spent_micro_cents = CASE WHEN s.month < EXCLUDED.month THEN 0 ELSE s.spent_micro_cents END,
          held_micro_cents = CASE WHEN s.month < EXCLUDED.month THEN 0 ELSE s.held_micro_cents END
                             + EXCLUDED.held_micro_cents,
          month = GREATEST(s.month, EXCLUDED.month)
        WHERE CASE WHEN s.month < EXCLUDED.month THEN 0 ELSE s.spent_micro_cents + s.held_micro_cents END
              + EXCLUDED.held_micro_cents <= workspace_limit;
        GET DIAGNOSTICS rows_held = ROW_COUNT;
        IF rows_held > 0 THEN
          PERFORM outpost_hold_record(p_node, p_workspace, p_member, p_month, p_amount, p_amount);
          RETURN 'held+workspace';
        END IF;

        UPDATE member_spend SET held_micro_cents = GREATEST(0, held_micro_cents - p_amount)
         WHERE workspace_id = p_workspace AND member_id = p_member;
        RETURN 'workspace';
      END $$`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP FUNCTION outpost_hold(varchar, varchar, varchar, date, bigint)');
    await queryRunner.query(
      'DROP FUNCTION outpost_hold_record(varchar, varchar, varchar, date, bigint, bigint)',
    );
    await queryRunner.query(`
      CREATE FUNCTION outpost_hold(p_workspace varchar, p_member varchar, p_month date, p_amount bigint)
      RETURNS text LANGUAGE plpgsql AS $$
      DECLARE
        member_limit bigint;
        workspace_limit bigint;
        rows_held int;
      BEGIN
        PERFORM set_config('synchronous_commit', 'off', true);
        SELECT COALESCE(b.limit_micro_cents, d.default_limit_micro_cents), d.monthly_limit_micro_cents
          INTO member_limit, workspace_limit
          FROM (SELECT 1) one
          LEFT JOIN member_budget b ON b.workspace_id = p_workspace AND b.member_id = p_member
          LEFT JOIN workspace_budget d ON d.workspace_id = p_workspace;

        INSERT INTO member_spend AS s (workspace_id, member_id, month, spent_micro_cents, held_micro_cents)
        SELECT p_workspace, p_member, p_month, 0, p_amount WHERE member_limit IS NULL OR p_amount <= member_limit
        ON CONFLICT (workspace_id, member_id) DO UPDATE SET
          spent_micro_cents = CASE WHEN s.month < EXCLUDED.month THEN 0 ELSE s.spent_micro_cents END,
          held_micro_cents = CASE WHEN s.month < EXCLUDED.month THEN 0 ELSE s.held_micro_cents END
                             + EXCLUDED.held_micro_cents,
          month = GREATEST(s.month, EXCLUDED.month)
        WHERE member_limit IS NULL
           OR CASE WHEN s.month < EXCLUDED.month THEN 0 ELSE s.spent_micro_cents + s.held_micro_cents END
              + EXCLUDED.held_micro_cents <= member_limit;
        GET DIAGNOSTICS rows_held = ROW_COUNT;
        IF rows_held = 0 THEN RETURN 'member'; END IF;
        IF workspace_limit IS NULL THEN RETURN 'held'; END IF;

        INSERT INTO workspace_spend AS s (workspace_id, month, spent_micro_cents, held_micro_cents)
        SELECT p_workspace, p_month, 0, p_amount WHERE p_amount <= workspace_limit
        ON CONFLICT (workspace_id) DO UPDATE SET
          spent_micro_cents = CASE WHEN s.month < EXCLUDED.month THEN 0 ELSE s.spent_micro_cents END,
          held_micro_cents = CASE WHEN s.month < EXCLUDED.month THEN 0 ELSE s.held_micro_cents END
                             + EXCLUDED.held_micro_cents,
          month = GREATEST(s.month, EXCLUDED.month)
        WHERE CASE WHEN s.month < EXCLUDED.month THEN 0 ELSE s.spent_micro_cents + s.held_micro_cents END
              + EXCLUDED.held_micro_cents <= workspace_limit;
        GET DIAGNOSTICS rows_held = ROW_COUNT;
        IF rows_held > 0 THEN RETURN 'held+workspace'; END IF;

        UPDATE member_spend SET held_micro_cents = GREATEST(0, held_micro_cents - p_amount)
         WHERE workspace_id = p_workspace AND member_id = p_member;
        RETURN 'workspace';
      END $$`);
  }
}
