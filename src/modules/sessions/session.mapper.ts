import { microCentsToDollars } from '@/common/money';
import { MessageRow, MessageTextRow } from './session-messages.repository';
import { SessionRow } from './sessions.repository';
import { SessionMessageInfo } from './session-message.types';
import { SessionInfo, Tokens } from './session.types';

const num = (value: string | number) => Number(value);

/**
 * A stored session as the API's `Session.Info`: the JSON the database rendered for the row (optional members
 * left out, never null; see the SessionInfo migration).
 */
export function toSessionInfo(row: Pick<SessionRow, 'info'>): SessionInfo {
  return JSON.parse(row.info) as SessionInfo;
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
  if (row.cost !== null) info.cost = microCentsToDollars(row.cost);
  return info as unknown as SessionMessageInfo;
}
