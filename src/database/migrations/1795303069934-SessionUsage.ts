import { MigrationInterface, QueryRunner } from 'typeorm';

/*
 * `session_usage` (SessionUsageEntity) and the triggers that keep it equal to what the user and assistant
 * messages add up to, in the transaction of every write. The key of a message's usage is its 15-minute slot,
 * its session's project and root-ness, and its model; the session's part of the key is read with the session
 * row locked FOR SHARE, so a concurrent move (which re-keys the session's usage) waits for the write or the
 * write for the move, and neither counts under the old project.
 */

/** The key of a message `m` of a session `s`. */
const KEY = `m.time_created / 900000 AS slot, s.project_id, s.parent_id IS NULL AS root,
  coalesce(m.model, 'null'::jsonb) AS model`;

/** The usage columns and what one message `m` adds to each. */
const MEASURES: Array<[string, string]> = [
  ['user_messages', `(m.type = 'user')::int`],
  ['steps', `(m.type = 'assistant')::int`],
  ['tokens_input', 'coalesce(m.tokens_input, 0)'],
  ['tokens_output', 'coalesce(m.tokens_output, 0)'],
  ['tokens_reasoning', 'coalesce(m.tokens_reasoning, 0)'],
  ['tokens_cache_read', 'coalesce(m.tokens_cache_read, 0)'],
  ['tokens_cache_write', 'coalesce(m.tokens_cache_write, 0)'],
  ['cost', 'coalesce(m.cost, 0)'],
  ['tool_calls', 'm.tool_calls'],
  ['tool_succeeded', 'm.tool_succeeded'],
  ['tool_failed', 'm.tool_failed'],
];

/** The usage rows of messages `m` (from `from`, which joins `s`), added (sign 1) or taken away (-1). */
function usage(sign: 1 | -1, from: string): string {
  const measures = MEASURES.map(([name, value]) => `${sign} * ${value} AS ${name}`).join(', ');
  return `SELECT ${KEY}, ${measures} FROM ${from} AND m.type IN ('user', 'assistant')`;
}

/** Adds the summed usage rows to `session_usage`, in key order (so concurrent writers lock rows in one order). */
function upsert(...rows: string[]): string {
  const names = MEASURES.map(([name]) => name);
  return `INSERT INTO session_usage AS u (slot, project_id, root, model, ${names.join(', ')})
    SELECT slot, project_id, root, model, ${names.map((name) => `sum(${name})`).join(', ')}
    FROM (${rows.join(' UNION ALL ')}) d
    GROUP BY slot, project_id, root, model
    HAVING ${names.map((name) => `sum(${name}) <> 0`).join(' OR ')}
    ORDER BY slot, project_id, root, model
    ON CONFLICT (slot, project_id, root, model) DO UPDATE SET
      ${names.map((name) => `${name} = u.${name} + excluded.${name}`).join(', ')}`;
}

/** A message update changes the usage only when one of these does. */
const CHANGED = ['session_id', 'type', 'time_created', 'model', ...MEASURES.slice(2).map(([name]) => name)]
  .map((column) => `OLD.${column} IS DISTINCT FROM NEW.${column}`)
  .join(' OR ');

const FUNCTIONS: Array<[string, string]> = [
  [
    'session_usage_messages_inserted',
    `PERFORM 1 FROM session WHERE id IN (SELECT session_id FROM added) ORDER BY id FOR SHARE;
     ${upsert(usage(1, 'added m JOIN session s ON s.id = m.session_id WHERE TRUE'))};
     RETURN NULL;`,
  ],
  [
    // Messages of a deleted session are taken away with it (session_usage_session_deleted): the join
    // leaves them out here, as their session is gone by the time the cascade deletes them.
    'session_usage_messages_deleted',
    `PERFORM 1 FROM session WHERE id IN (SELECT session_id FROM removed) ORDER BY id FOR SHARE;
     ${upsert(usage(-1, 'removed m JOIN session s ON s.id = m.session_id WHERE TRUE'))};
     RETURN NULL;`,
  ],
  [
    'session_usage_message_updated',
    `PERFORM 1 FROM session WHERE id IN (OLD.session_id, NEW.session_id) ORDER BY id FOR SHARE;
     ${upsert(
       usage(-1, '(SELECT OLD.*) m JOIN session s ON s.id = m.session_id WHERE TRUE'),
       usage(1, '(SELECT NEW.*) m JOIN session s ON s.id = m.session_id WHERE TRUE'),
     )};
     RETURN NULL;`,
  ],
  [
    'session_usage_session_deleted',
    `${upsert(usage(-1, '(SELECT OLD.*) s JOIN session_message m ON m.session_id = s.id WHERE TRUE'))};
     RETURN OLD;`,
  ],
  [
    'session_usage_session_moved',
    `${upsert(
      usage(-1, '(SELECT OLD.*) s JOIN session_message m ON m.session_id = s.id WHERE TRUE'),
      usage(1, '(SELECT NEW.*) s JOIN session_message m ON m.session_id = s.id WHERE TRUE'),
    )};
     RETURN NULL;`,
  ],
];

const TRIGGERS: Array<[string, string]> = [
  [
    'session_usage_messages_inserted',
    `AFTER INSERT ON session_message REFERENCING NEW TABLE AS added FOR EACH STATEMENT`,
  ],
  [
    'session_usage_messages_deleted',
    `AFTER DELETE ON session_message REFERENCING OLD TABLE AS removed FOR EACH STATEMENT`,
  ],
  ['session_usage_message_updated', `AFTER UPDATE ON session_message FOR EACH ROW WHEN (${CHANGED})`],
  ['session_usage_session_deleted', `BEFORE DELETE ON session FOR EACH ROW`],
  [
    'session_usage_session_moved',
    `AFTER UPDATE ON session FOR EACH ROW
       WHEN (OLD.project_id IS DISTINCT FROM NEW.project_id OR (OLD.parent_id IS NULL) <> (NEW.parent_id IS NULL))`,
  ],
];

export class SessionUsage1795303069934 implements MigrationInterface {
  name = 'SessionUsage1795303069934';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "session_usage" ("slot" bigint NOT NULL, "project_id" character varying(200) NOT NULL, "root" boolean NOT NULL, "model" jsonb NOT NULL, "user_messages" bigint NOT NULL DEFAULT '0', "steps" bigint NOT NULL DEFAULT '0', "tokens_input" bigint NOT NULL DEFAULT '0', "tokens_output" bigint NOT NULL DEFAULT '0', "tokens_reasoning" bigint NOT NULL DEFAULT '0', "tokens_cache_read" bigint NOT NULL DEFAULT '0', "tokens_cache_write" bigint NOT NULL DEFAULT '0', "cost" bigint NOT NULL DEFAULT '0', "tool_calls" bigint NOT NULL DEFAULT '0', "tool_succeeded" bigint NOT NULL DEFAULT '0', "tool_failed" bigint NOT NULL DEFAULT '0', CONSTRAINT "PK_91e206feefd0cef1dfd481ecc4b" PRIMARY KEY ("slot", "project_id", "root", "model"))`,
    );
    // The messages stored so far, then the triggers for every write from here on.
    await queryRunner.query(
      upsert(usage(1, 'session_message m JOIN session s ON s.id = m.session_id WHERE TRUE')),
    );
    for (const [name, body] of FUNCTIONS) {
      await queryRunner.query(
        `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${body} END $$`,
      );
    }
    for (const [name, when] of TRIGGERS) {
      await queryRunner.query(`CREATE TRIGGER ${name} ${when} EXECUTE FUNCTION ${name}()`);
    }
    // Stats read the rollup now: the covering index of assistant turns only cost their writes.
    await queryRunner.query(`DROP INDEX "public"."session_message_steps_idx"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "session_message_steps_idx" ON "session_message" ("time_created")
         INCLUDE ("model", "tokens_input", "tokens_output", "tokens_reasoning", "tokens_cache_read",
           "tokens_cache_write", "cost", "tool_calls", "tool_succeeded", "tool_failed")
         WHERE type = 'assistant'`,
    );
    for (const [name, when] of [...TRIGGERS].reverse()) {
      const table = / ON (\w+)/.exec(when)![1];
      await queryRunner.query(`DROP TRIGGER ${name} ON ${table}`);
    }
    for (const [name] of [...FUNCTIONS].reverse()) await queryRunner.query(`DROP FUNCTION ${name}()`);
    await queryRunner.query(`DROP TABLE "session_usage"`);
  }
}
