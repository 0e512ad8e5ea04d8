import { MessageRow, MessageTextRow, SessionRow } from './sessions.repository';
import { SessionMessageInfo } from './session-message.types';
import { SessionInfo, Tokens } from './session.types';

/** 1 USD in the micro-cents of the money columns. */
export const MICRO_CENTS_PER_USD = 100_000_000;

const num = (value: string | number) => Number(value);

/** A stored session as the API's `Session.Info`: optional members are left out, never null. */
export function toSessionInfo(row: SessionRow): SessionInfo {
  const info: SessionInfo = {
    id: row.id,
    projectID: row.project_id,
    cost: num(row.cost) / MICRO_CENTS_PER_USD,
    tokens: {
      input: num(row.tokens_input),
      output: num(row.tokens_output),
      reasoning: num(row.tokens_reasoning),
      cache: { read: num(row.tokens_cache_read), write: num(row.tokens_cache_write) },
    },
    time: { created: num(row.time_created), updated: num(row.time_updated) },
    title: row.title,
    location: { directory: row.directory },
  };
  if (row.parent_id !== null) info.parentID = row.parent_id;
  if (row.fork !== null) info.fork = row.fork;
  if (row.agent !== null) info.agent = row.agent;
  if (row.model !== null) info.model = row.model;
  if (row.outcome !== null) info.outcome = row.outcome;
  if (row.time_idle !== null) info.time.idle = num(row.time_idle);
  if (row.time_viewed !== null) info.time.viewed = num(row.time_viewed);
  if (row.time_archived !== null) info.time.archived = num(row.time_archived);
  if (row.subpath !== '') info.subpath = row.subpath;
  if (row.metadata !== null) info.metadata = row.metadata;
  if (row.permissions !== null) info.permissions = row.permissions;
  return info;
}

/** A stored message as `Session.Message.Info` (the variant's members come from `data`). */
export function toMessageInfo(row: MessageRow): SessionMessageInfo {
  return messageInfo(row, row.data);
}

/** The same from a row whose `data` is JSON text. */
export function textRowToMessageInfo(row: MessageTextRow): SessionMessageInfo {
  return messageInfo(row, JSON.parse(row.data) as unknown);
}

/**
 * `data` is freshly parsed and owned here, so the row's own members are added to it rather than copied
 * (same members in the same order as `{ ...data, id, type, time }`, without the copy).
 */
function messageInfo(row: Omit<MessageRow, 'data'>, data: unknown): SessionMessageInfo {
  const time: { created: number; completed?: number } = { created: num(row.time_created) };
  if (row.time_completed !== null) time.completed = num(row.time_completed);
  const info: Record<string, unknown> =
    typeof data === 'object' && data !== null && !Array.isArray(data)
      ? (data as Record<string, unknown>)
      : { ...(data as object) };
  info.id = row.id;
  info.type = row.type;
  info.time = time;
  if (row.tokens_input !== null) {
    const tokens: Tokens = {
      input: num(row.tokens_input),
      output: num(row.tokens_output ?? 0),
      reasoning: num(row.tokens_reasoning ?? 0),
      cache: { read: num(row.tokens_cache_read ?? 0), write: num(row.tokens_cache_write ?? 0) },
    };
    info.tokens = tokens;
  }
  if (row.cost !== null) info.cost = num(row.cost) / MICRO_CENTS_PER_USD;
  return info as unknown as SessionMessageInfo;
}
