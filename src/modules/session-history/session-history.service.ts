import { lastCompaction, TranscriptMessage } from '../runtime/providers/history';
import { Injectable } from '@nestjs/common';
import { MessageNotFoundError } from '../sessions/sessions.errors';
import { SessionsService } from '../sessions/sessions.service';
import { SessionMessageInfo } from '../sessions/session-message.types';
import { DurableEvent, durableEvents } from './durable-events';

const DEFAULT_HISTORY = 100;

/**
 * Reads of a session's transcript in the forms opencode's v2 clients ask for: one message, the model's context,
 * and the durable history.
 */
@Injectable()
export class SessionHistoryService {
  constructor(private readonly sessions: SessionsService) {}

  async message(sessionID: string, messageID: string): Promise<SessionMessageInfo> {
    const found = (await this.sessions.messages(sessionID)).find((m) => m.id === messageID);
    if (!found) throw new MessageNotFoundError(sessionID, messageID);
    return found;
  }

  /** What the next model turn sees: the transcript from the last completed compaction on (its summary first). */
  async context(sessionID: string): Promise<SessionMessageInfo[]> {
    await this.sessions.get(sessionID);
    const messages = await this.sessions.messages(sessionID);
    return messages.slice(Math.max(0, lastCompaction(messages as TranscriptMessage[])));
  }

  async history(sessionID: string, after = 0, limit = DEFAULT_HISTORY) {
    const all = await this.all(sessionID);
    const rest = all.filter((event) => event.durable.seq > after);
    return { data: rest.slice(0, limit), hasMore: rest.length > limit };
  }

  private async all(sessionID: string): Promise<DurableEvent[]> {
    await this.sessions.get(sessionID);
    return durableEvents(await this.sessions.messages(sessionID), sessionID);
  }
}
