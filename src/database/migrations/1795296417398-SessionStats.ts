import { MigrationInterface, QueryRunner } from 'typeorm';

/** Usage columns PostgreSQL derives from a message's `data` (see SessionMessageEntity): name, type, expression. */
const GENERATED: Array<[string, string, string]> = [
  ['model', 'jsonb', `CASE WHEN type = 'assistant' THEN data->'model' END`],
  [
    'tool_calls',
    'integer NOT NULL',
    `CASE WHEN type = 'assistant' THEN jsonb_array_length(jsonb_path_query_array(data, '$.content[*] ? (@.type == "tool")')) ELSE 0 END`,
  ],
  [
    'tool_succeeded',
    'integer NOT NULL',
    `CASE WHEN type = 'assistant' THEN jsonb_array_length(jsonb_path_query_array(data, '$.content[*] ? (@.type == "tool" && @.state.status == "completed")')) ELSE 0 END`,
  ],
  [
    'tool_failed',
    'integer NOT NULL',
    `CASE WHEN type = 'assistant' THEN jsonb_array_length(jsonb_path_query_array(data, '$.content[*] ? (@.type == "tool" && @.state.status == "error")')) ELSE 0 END`,
  ],
];

export class SessionStats1795296417398 implements MigrationInterface {
  name = 'SessionStats1795296417398';

  public async up(queryRunner: QueryRunner): Promise<void> {
    // TypeORM reads generated-column expressions back from this table when it compares schemas.
    await queryRunner.query(
      `CREATE TABLE IF NOT EXISTS "typeorm_metadata" ("type" varchar NOT NULL, "database" varchar, "schema" varchar,
         "table" varchar, "name" varchar, "value" text)`,
    );
    for (const [name, type, expression] of GENERATED) {
      const [sqlType, ...constraints] = type.split(' ');
      await queryRunner.query(
        `ALTER TABLE "session_message" ADD "${name}" ${sqlType} GENERATED ALWAYS AS (${expression}) STORED ${constraints.join(' ')}`,
      );
      await queryRunner.query(
        `INSERT INTO "typeorm_metadata"("database", "schema", "table", "type", "name", "value")
         VALUES (current_database(), current_schema(), 'session_message', 'GENERATED_COLUMN', $1, $2)`,
        [name, expression],
      );
    }
    await queryRunner.query(
      `CREATE INDEX "session_message_session_type_created_idx" ON "session_message" ("session_id", "type", "time_created") `,
    );
    await queryRunner.query(
      `CREATE INDEX "session_message_steps_idx" ON "session_message" ("time_created")
         INCLUDE ("model", "tokens_input", "tokens_output", "tokens_reasoning", "tokens_cache_read",
           "tokens_cache_write", "cost", "tool_calls", "tool_succeeded", "tool_failed")
         WHERE type = 'assistant'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."session_message_steps_idx"`);
    await queryRunner.query(`DROP INDEX "public"."session_message_session_type_created_idx"`);
    for (const [name] of [...GENERATED].reverse()) {
      await queryRunner.query(
        `DELETE FROM "typeorm_metadata" WHERE "type" = 'GENERATED_COLUMN' AND "table" = 'session_message' AND "name" = $1`,
        [name],
      );
      await queryRunner.query(`ALTER TABLE "session_message" DROP COLUMN "${name}"`);
    }
  }
}
