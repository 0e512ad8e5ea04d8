import { InvalidCursorError } from '../sessions/sessions.errors';
import { SessionMessageInfo } from '../sessions/session-message.types';
import { SessionsService } from '../sessions/sessions.service';
import { PROMPT_MESSAGE_ID } from './dto/prompt.dto';

export interface MessagesPage {
  data: SessionMessageInfo[];
  cursor: { previous?: string; next?: string };
}

interface MessagesCursor {
  order: 'asc' | 'desc';
  /** Exclusive: the page starts after this message in the direction of travel. */
  anchor: string;
  direction: 'next' | 'previous';
}

const encode = (cursor: MessagesCursor) => Buffer.from(JSON.stringify(cursor)).toString('base64url');

function decode(raw: string): MessagesCursor {
  try {
    const value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as MessagesCursor;
    if (
      (value.order === 'asc' || value.order === 'desc') &&
      (value.direction === 'next' || value.direction === 'previous') &&
      typeof value.anchor === 'string' &&
      PROMPT_MESSAGE_ID.test(value.anchor) &&
      Object.keys(value).length === 3
    )
      return value;
  } catch {}
  throw new InvalidCursorError();
}

/** The transcript in keyset pages by message id, as `session.list` pages sessions. */
export async function messagesPage(
  sessions: SessionsService,
  sessionID: string,
  query: { limit?: number; order?: 'asc' | 'desc'; cursor?: string },
): Promise<MessagesPage> {
  const cursor = query.cursor ? decode(query.cursor) : undefined;
  const order = cursor?.order ?? query.order ?? 'asc';
  const backwards = cursor?.direction === 'previous';
  const scan = backwards ? (order === 'asc' ? 'desc' : 'asc') : order;
  const rows = await sessions.messagePage(sessionID, scan, cursor?.anchor, query.limit ?? 50);
  const data = backwards ? rows.reverse() : rows;
  if (data.length === 0) return { data, cursor: {} };
  return {
    data,
    cursor: {
      previous: encode({ order, anchor: data[0].id, direction: 'previous' }),
      next: encode({ order, anchor: data[data.length - 1].id, direction: 'next' }),
    },
  };
}
