import { MigrationInterface, QueryRunner } from 'typeorm';

/*
 * `session.revert`: the staged revert of a session (`{ messageID, partID?, snapshot? }`), null when none, and
 * `Session.Info` rendered with it (the render function of SessionInfo1795310325619 with one member more).
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
    ',"revert":' || NEW.revert::text,
    '}');
  RETURN NEW;`;

/** The render function as SessionInfo1795310325619 made it, for `down`. */
const RENDER_BEFORE = `
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

export class SessionRevert1795712001509 implements MigrationInterface {
  name = 'SessionRevert1795712001509';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "session" ADD "revert" jsonb`);
    await queryRunner.query(
      `CREATE OR REPLACE FUNCTION session_info_render() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${RENDER} END $$`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE OR REPLACE FUNCTION session_info_render() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${RENDER_BEFORE} END $$`,
    );
    await queryRunner.query(`ALTER TABLE "session" DROP COLUMN "revert"`);
  }
}
