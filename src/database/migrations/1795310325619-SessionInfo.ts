import { MigrationInterface, QueryRunner } from 'typeorm';

/*
 * `session.info`: each session row rendered as the API's `Session.Info` JSON by a BEFORE trigger, on every
 * insert and update, whoever writes (this process, another one, an import, a hand-run UPDATE). Reads of
 * sessions (get, list, events) send or parse this text instead of building the object from 23 columns:
 * a page of 50 costs the server one string per row.
 *
 * The shape: optional members are left out, never null (`concat` skips the NULL that `'…' || NULL` gives);
 * `subpath` only when not at the project root; `cost` in USD from the micro-cent column, as an exact decimal
 * (multiplying by 0.00000001 loses nothing, whatever the session's `extra_float_digits`); texts escaped by
 * `to_json`; the jsonb members as PostgreSQL prints them.
 */
const RENDER = `
  NEW.info := concat(
    '{"id":', to_json(NEW.id),
    ',"projectID":', to_json(NEW.project_id),
    ',"cost":', trim_scale(NEW.cost * 0.00000001),
    ',"tokens":{"input":', NEW.tokens_input,
    ',"output":', NEW.tokens_output,
    ',"reasoning":', NEW.tokens_reasoning,
    ',"cache":{"read":', NEW.tokens_cache_read, ',"write":', NEW.tokens_cache_write, '}}',
    ',"time":{"created":', NEW.time_created, ',"updated":', NEW.time_updated,
    ',"idle":' || NEW.time_idle,
    ',"viewed":' || NEW.time_viewed,
    ',"archived":' || NEW.time_archived, '}',
    ',"title":', to_json(NEW.title),
    ',"location":{"directory":', to_json(NEW.directory), '}',
    ',"parentID":' || to_json(NEW.parent_id),
    ',"fork":' || NEW.fork::text,
    ',"agent":' || to_json(NEW.agent),
    ',"model":' || NEW.model::text,
    ',"outcome":' || to_json(NEW.outcome),
    ',"subpath":' || to_json(nullif(NEW.subpath, '')),
    ',"metadata":' || NEW.metadata::text,
    ',"permissions":' || NEW.permissions::text,
    '}');
  RETURN NEW;`;

export class SessionInfo1795310325619 implements MigrationInterface {
  name = 'SessionInfo1795310325619';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "session" ADD "info" text`);
    await queryRunner.query(
      `CREATE FUNCTION session_info_render() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${RENDER} END $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER session_info_render BEFORE INSERT OR UPDATE ON session
       FOR EACH ROW EXECUTE FUNCTION session_info_render()`,
    );
    // Renders the sessions already stored (the trigger does it; `id = id` changes nothing else).
    await queryRunner.query(`UPDATE session SET id = id`);
    await queryRunner.query(`ALTER TABLE "session" ALTER COLUMN "info" SET NOT NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER session_info_render ON session`);
    await queryRunner.query(`DROP FUNCTION session_info_render()`);
    await queryRunner.query(`ALTER TABLE "session" DROP COLUMN "info"`);
  }
}
