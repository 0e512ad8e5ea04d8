import { Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import type { ServerResponse } from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import { OutpostEvent, PUBLISHED_EVENT } from '@/common/events';
import { SseStreams } from '../events/sse-streams';
import { SessionMessageInfo } from '../sessions/session-message.types';
import { SessionsService } from '../sessions/sessions.service';
import { durableEvents } from './durable-events';

/** An event as this stream sends it: with its id and type, so a client can resume after it. */
const sseEvent = (event: { id: string; type: string }) =>
  `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

/** A message event whose message the history read holds as it is: the client has it already. */
function inHistory(event: OutpostEvent, read: Map<string, SessionMessageInfo>): boolean {
  if (event.type !== 'session.message.created' && event.type !== 'session.message.updated') return false;
  const { message } = event.data as { message?: SessionMessageInfo };
  return message !== undefined && isDeepStrictEqual(read.get(message.id), message);
}

/** `GET /api/session/{id}/event`: a session's durable history, then its live events. */
@Injectable()
export class SessionEventStreams {
  constructor(
    private readonly sessions: SessionsService,
    private readonly emitter: EventEmitter2,
    private readonly sse: SseStreams,
  ) {}

  /**
   * The history after `after`, then the session's events as they are published. It listens before it reads the
   * history, so what is published meanwhile is held rather than lost, and sent after the history but for what
   * the history already holds.
   */
  async open(sessionID: string, response: ServerResponse, after = 0): Promise<void> {
    const held: OutpostEvent[] = [];
    let deliver: (event: OutpostEvent) => void = (event) => held.push(event);
    const listener = (event: OutpostEvent) => {
      if ((event.data as { sessionID?: string }).sessionID === sessionID) deliver(event);
    };
    this.emitter.on(PUBLISHED_EVENT, listener);
    let messages: SessionMessageInfo[];
    try {
      await this.sessions.get(sessionID);
      messages = await this.sessions.messages(sessionID);
    } catch (error) {
      this.emitter.off(PUBLISHED_EVENT, listener);
      throw error;
    }
    const stream = this.sse.open(response, {
      heartbeat: () => ': heartbeat\n\n',
      onClose: () => this.emitter.off(PUBLISHED_EVENT, listener),
    });
    for (const event of durableEvents(messages, sessionID)) {
      if (event.durable.seq > after) stream.write(sseEvent(event));
    }
    const read = new Map(messages.map((message) => [message.id, message]));
    for (const event of held) if (!inHistory(event, read)) stream.write(sseEvent(event));
    deliver = (event) => stream.write(sseEvent(event));
  }
}
