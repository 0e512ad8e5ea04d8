import { MigrationInterface, QueryRunner } from 'typeorm';

/** Usage columns PostgreSQL derives from a message's `data` (see SessionMessageEntity). */
const GENERATED: Record<string, string> = {
  model: `CASE WHEN type = 'assistant' THEN data->'model' END`,
  tool_calls: `CASE WHEN type = 'assistant' THEN jsonb_array_length(jsonb_path_query_array(data, '$.content[*] ? (@.type == "tool")')) ELSE 0 END`,
  tool_succeeded: `CASE WHEN type = 'assistant' THEN jsonb_array_length(jsonb_path_query_array(data, '$.content[*] ? (@.type == "tool" && @.state.status == "completed")')) ELSE 0 END`,
  tool_failed: `CASE WHEN type = 'assistant' THEN jsonb_array_length(jsonb_path_query_array(data, '$.content[*] ? (@.type == "tool" && @.state.status == "error")')) ELSE 0 END`,
};

export class SessionStats1795296417398 implements MigrationInterface {
  name = 'SessionStats1795296417398';

  public async up(queryRunner: QueryRunner): Promise<void> {
    // TypeORM reads generated-column expressions back from this table when it compares schemas.
    await queryRunner.query(
      `CREATE TABLE IF NOT EXISTS "typeorm_metadata" ("type" varchar NOT NULL, "database" varchar, "schema" varchar,
         "table" varchar, "name" varchar, "value" text)`,
    );
    await queryRunner.query(
      `ALTER TABLE "session_message" ADD "model" jsonb GENERATED ALWAYS AS (${GENERATED.model}) STORED`,
    );
    await queryRunner.query(
      `INSERT INTO "typeorm_metadata"("database", "schema", "table", "type", "name", "value")
       VALUES (current_database(), current_schema(), 'session_message', 'GENERATED_COLUMN', $1, $2)`,
      ['model', GENERATED.model],
    );
    await queryRunner.query(
      `ALTER TABLE "session_message" ADD "tool_calls" integer GENERATED ALWAYS AS (${GENERATED.tool_calls}) STORED NOT NULL`,
    );
    await queryRunner.query(
      `INSERT INTO "typeorm_metadata"("database", "schema", "table", "type", "name", "value")
       VALUES (current_database(), current_schema(), 'session_message', 'GENERATED_COLUMN', $1, $2)`,
      ['tool_calls', GENERATED.tool_calls],
    );
    await queryRunner.query(
      `ALTER TABLE "session_message" ADD "tool_succeeded" integer GENERATED ALWAYS AS (${GENERATED.tool_succeeded}) STORED NOT NULL`,
    );
    await queryRunner.query(
      `INSERT INTO "typeorm_metadata"("database", "schema", "table", "type", "name", "value")
       VALUES (current_database(), current_schema(), 'session_message', 'GENERATED_COLUMN', $1, $2)`,
      ['tool_succeeded', GENERATED.tool_succeeded],
    );
    await queryRunner.query(
      `ALTER TABLE "session_message" ADD "tool_failed" integer GENERATED ALWAYS AS (${GENERATED.tool_failed}) STORED NOT NULL`,
    );
    await queryRunner.query(
      `INSERT INTO "typeorm_metadata"("database", "schema", "table", "type", "name", "value")
       VALUES (current_database(), current_schema(), 'session_message', 'GENERATED_COLUMN', $1, $2)`,
      ['tool_failed', GENERATED.tool_failed],
    );
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
    await queryRunner.query(
      `DELETE FROM "typeorm_metadata" WHERE "type" = 'GENERATED_COLUMN' AND "table" = 'session_message' AND "name" = $1`,
      ['tool_failed'],
    );
    await queryRunner.query(`ALTER TABLE "session_message" DROP COLUMN "tool_failed"`);
    await queryRunner.query(
      `DELETE FROM "typeorm_metadata" WHERE "type" = 'GENERATED_COLUMN' AND "table" = 'session_message' AND "name" = $1`,
      ['tool_succeeded'],
    );
    await queryRunner.query(`ALTER TABLE "session_message" DROP COLUMN "tool_succeeded"`);
    await queryRunner.query(
      `DELETE FROM "typeorm_metadata" WHERE "type" = 'GENERATED_COLUMN' AND "table" = 'session_message' AND "name" = $1`,
      ['tool_calls'],
    );
    await queryRunner.query(`ALTER TABLE "session_message" DROP COLUMN "tool_calls"`);
    await queryRunner.query(
      `DELETE FROM "typeorm_metadata" WHERE "type" = 'GENERATED_COLUMN' AND "table" = 'session_message' AND "name" = $1`,
      ['model'],
    );
    await queryRunner.query(`ALTER TABLE "session_message" DROP COLUMN "model"`);
  }
}
