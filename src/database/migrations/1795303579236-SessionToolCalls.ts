import { MigrationInterface, QueryRunner } from 'typeorm';

/*
 * `session_tool_call` (SessionToolCallEntity): the tool parts of assistant messages as rows, kept by triggers
 * on `session_message` in the transaction of each write, and deleted with their message (foreign key). The
 * triggers must not fail a message write whatever its content: odd parts give '' names and null durations.
 */

/** Epoch ms from a JSON member, or null when it is not a number of a sane size. */
const MS = `CREATE FUNCTION session_tool_call_ms(value jsonb) RETURNS bigint IMMUTABLE LANGUAGE sql AS $$
  SELECT CASE WHEN jsonb_typeof(value) = 'number' AND abs(value::numeric) < 1e15 THEN round(value::numeric)::bigint END
$$`;

/** The tool-call rows of the assistant messages `m` (from `from`): the parts `tool_calls` counts. */
function calls(from: string): string {
  const time = (member: string) => `session_tool_call_ms(c.part->'time'->'${member}')`;
  return `INSERT INTO session_tool_call (session_id, message_id, part, time_created, name, outcome, duration)
    SELECT m.session_id, m.id, c.index, m.time_created, coalesce(c.part->>'name', ''),
           CASE c.part->'state'->>'status' WHEN 'completed' THEN 'completed' WHEN 'error' THEN 'error'
             ELSE 'unfinished' END,
           ${time('completed')} - coalesce(${time('ran')}, ${time('created')})
    FROM ${from}
    CROSS JOIN LATERAL jsonb_path_query(m.data, '$.content[*] ? (@.type == "tool")') WITH ORDINALITY AS c(part, index)
    WHERE m.type = 'assistant' AND m.tool_calls > 0`;
}

/** A message's calls change only with its tool-call counts (a call appears, completes or fails). */
const CHANGED = ['type', 'time_created', 'tool_calls', 'tool_succeeded', 'tool_failed']
  .map((column) => `OLD.${column} IS DISTINCT FROM NEW.${column}`)
  .join(' OR ');

const FUNCTIONS: Array<[string, string]> = [
  ['session_tool_calls_inserted', `${calls('added m')}; RETURN NULL;`],
  [
    'session_tool_calls_updated',
    `DELETE FROM session_tool_call WHERE session_id = OLD.session_id AND message_id = OLD.id;
     ${calls('(SELECT NEW.*) m')};
     RETURN NULL;`,
  ],
];

const TRIGGERS: Array<[string, string]> = [
  [
    'session_tool_calls_inserted',
    'AFTER INSERT ON session_message REFERENCING NEW TABLE AS added FOR EACH STATEMENT',
  ],
  ['session_tool_calls_updated', `AFTER UPDATE ON session_message FOR EACH ROW WHEN (${CHANGED})`],
];

export class SessionToolCalls1795303579236 implements MigrationInterface {
  name = 'SessionToolCalls1795303579236';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "session_tool_call" ("session_id" character varying(64) COLLATE "C" NOT NULL, "message_id" character varying(64) COLLATE "C" NOT NULL, "part" integer NOT NULL, "time_created" bigint NOT NULL, "name" text NOT NULL, "outcome" character varying(16) NOT NULL, "duration" bigint, CONSTRAINT "PK_bc0c871c71ea5018cee867e8215" PRIMARY KEY ("session_id", "message_id", "part"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "session_tool_call" ADD CONSTRAINT "FK_48521ba69931e7cda41d16b7219" FOREIGN KEY ("session_id", "message_id") REFERENCES "session_message"("session_id","id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE INDEX "session_tool_call_created_idx" ON "session_tool_call" ("time_created")
         INCLUDE ("session_id", "name", "outcome", "duration")`,
    );
    await queryRunner.query(MS);
    // The calls stored so far, then the triggers for every write from here on.
    await queryRunner.query(calls('session_message m'));
    for (const [name, body] of FUNCTIONS) {
      await queryRunner.query(
        `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${body} END $$`,
      );
    }
    for (const [name, when] of TRIGGERS) {
      await queryRunner.query(`CREATE TRIGGER ${name} ${when} EXECUTE FUNCTION ${name}()`);
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const [name] of [...TRIGGERS].reverse()) {
      await queryRunner.query(`DROP TRIGGER ${name} ON session_message`);
      await queryRunner.query(`DROP FUNCTION ${name}()`);
    }
    await queryRunner.query(`DROP FUNCTION session_tool_call_ms(jsonb)`);
    await queryRunner.query(`DROP INDEX "public"."session_tool_call_created_idx"`);
    await queryRunner.query(
      `ALTER TABLE "session_tool_call" DROP CONSTRAINT "FK_48521ba69931e7cda41d16b7219"`,
    );
    await queryRunner.query(`DROP TABLE "session_tool_call"`);
  }
}
