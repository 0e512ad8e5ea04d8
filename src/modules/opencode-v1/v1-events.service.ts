import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import type { ServerResponse } from 'node:http';
import { ascendingId } from '@/common/ids';
import { OutpostEvent, PUBLISHED_EVENT } from '@/common/events';
import { SseStream, sseData } from '../events/sse-stream';
import { SseStreams } from '../events/sse-streams';
import type { AssistantMessage, SessionMessageInfo } from '../sessions/session-message.types';
import {
  partID,
  v1ContentPart,
  v1MessageInfo,
  v1Parts,
  v1Permission,
  v1Session,
  v1StepFinish,
  v1StepStart,
} from './v1-shapes';
import { v1CompactionMessages, v1ShellMessages } from './v1-turn-shapes';

/** v1's event envelope: `{ id, type, properties }`. */
export interface V1Event {
  id: string;
  type: string;
  properties: Record<string, unknown>;
}

interface Stream {
  sse: SseStream;
  /** `/event` streams carry the events of one directory; `/global/event` streams carry all, wrapped. */
  directory?: string;
  global: boolean;
}

/**
 * The parts of an assistant message v1 clients have been told of, so deltas land on parts they know, and what
 * each was last sent as: a `message.updated` re-sends only the parts that changed (`opencode run` prints a
 * finished tool line each time it receives the part).
 */
interface Announced {
  sessionID: string;
  /** Content index (-1 is the step start) → the part as last sent (undefined: announced empty by a delta). */
  parts: Map<number, string | undefined>;
  /**
   * The step finish was sent. A quick step can be announced already complete (its events wait for the previous
   * step's close), and its deltas arrive after that: they are dropped, the parts already hold their text.
   */
  finished?: boolean;
  /** Content indexes sent in their final state. */
  final: Set<number>;
}

/**
 * Translates Outpost's events into opencode v1 events once, and fans them out to the open `/event` and
 * `/global/event` streams: session changes, message and part updates with streamed deltas, session status,
 * permission requests and replies.
 */
@Injectable()
export class V1EventsService {
  private readonly streams = new Set<Stream>();
  private readonly announced = new Map<string, Announced>();
  private readonly lastUser = new Map<string, string>();

  constructor(private readonly sse: SseStreams) {}

  open(response: ServerResponse, options: { directory?: string; global: boolean }): void {
    const stream: Stream = {
      ...options,
      sse: this.sse.open(response, {
        heartbeat: () => this.frame(stream, this.event('server.heartbeat', {})),
        onClose: () => this.streams.delete(stream),
      }),
    };
    stream.sse.write(this.frame(stream, this.event('server.connected', {})));
    this.streams.add(stream);
  }

  @OnEvent(PUBLISHED_EVENT)
  deliver(event: OutpostEvent): void {
    // Nobody listens: nothing to translate (a stream opened later gets each message's parts in full).
    if (this.streams.size === 0) return;
    const translated = this.translate(event);
    if (translated.length === 0) return;
    const directory = event.location?.directory;
    for (const stream of this.streams) {
      if (!stream.global && stream.directory && directory && stream.directory !== directory) continue;
      for (const out of translated) stream.sse.write(this.frame(stream, out, directory));
    }
  }

  /** An event as the stream sends it: as it is on `/event`, wrapped with its directory on `/global/event`. */
  private frame(stream: Stream, event: V1Event, directory?: string): string {
    return sseData(stream.global ? { ...(directory ? { directory } : {}), payload: event } : event);
  }

  private event(type: string, properties: Record<string, unknown>): V1Event {
    return { id: ascendingId('evt'), type, properties };
  }

  private translate(event: OutpostEvent): V1Event[] {
    const e = (type: string, properties: Record<string, unknown>) => this.event(type, properties);
    switch (event.type) {
      case 'session.created':
      case 'session.updated':
      case 'session.deleted': {
        const data = event.data as { sessionID: string; info: Parameters<typeof v1Session>[0] };
        if (event.type === 'session.deleted') this.forget(data.sessionID);
        return [e(event.type, { sessionID: data.sessionID, info: v1Session(data.info) })];
      }
      case 'session.execution.started': {
        const { sessionID } = event.data as { sessionID: string };
        return [e('session.status', { sessionID, status: { type: 'busy' } })];
      }
      case 'session.idle': {
        const { sessionID } = event.data as { sessionID: string };
        this.forget(sessionID, false);
        return [
          e('session.status', { sessionID, status: { type: 'idle' } }),
          e('session.idle', { sessionID }),
        ];
      }
      case 'session.execution.failed': {
        const { sessionID, error } = event.data as { sessionID: string; error: { message: string } };
        return [
          e('session.error', {
            sessionID,
            error: { name: 'UnknownError', data: { message: error.message } },
          }),
        ];
      }
      case 'session.message.created':
      case 'session.message.updated': {
        const { sessionID, message } = event.data as { sessionID: string; message: SessionMessageInfo };
        return this.message(sessionID, message, event.location?.directory ?? '');
      }
      case 'session.message.part.delta':
        return this.partDelta(event);
      case 'session.todo.updated': {
        const { sessionID, todos } = event.data as { sessionID: string; todos: unknown[] };
        return [e('todo.updated', { sessionID, todos })];
      }
      case 'session.step.retrying':
        return [this.retrying(event)];
      case 'session.message.removed':
        return this.removed(event);
      // A client's edit of a stored message's part: the same event on both streams.
      case 'message.part.updated':
      case 'message.part.removed':
      case 'project.updated':
        return [e(event.type, event.data as Record<string, unknown>)];
      case 'session.compacted': {
        const { sessionID } = event.data as { sessionID: string };
        return [e('session.compacted', { sessionID })];
      }
      case 'permission.asked': {
        const request = event.data as Parameters<typeof v1Permission>[0];
        return [e('permission.asked', v1Permission(request))];
      }
      case 'permission.replied': {
        const data = event.data as { sessionID: string; requestID: string; reply: string };
        return [
          e('permission.replied', {
            sessionID: data.sessionID,
            requestID: data.requestID,
            reply: data.reply,
          }),
        ];
      }
      case 'question.asked':
      case 'question.replied':
      case 'question.rejected':
      case 'tui.prompt.append':
      case 'tui.command.execute':
      case 'tui.toast.show':
      case 'tui.session.select':
        return [e(event.type, event.data as Record<string, unknown>)];
      default:
        return [];
    }
  }

  /** A step that failed and will be tried again: v1's `retry` status. */
  private retrying(event: OutpostEvent): V1Event {
    const { sessionID, attempt, at, error } = event.data as {
      sessionID: string;
      attempt: number;
      at: number;
      error: string;
    };
    return this.event('session.status', {
      sessionID,
      status: { type: 'retry', attempt, message: error, next: at },
    });
  }

  /** A message undone, with its answer: one `message.removed` each. */
  private removed(event: OutpostEvent): V1Event[] {
    const { sessionID, messageID, answerID } = event.data as {
      sessionID: string;
      messageID: string;
      answerID?: string;
    };
    return [messageID, ...(answerID ? [answerID] : [])].map((id) =>
      this.event('message.removed', { sessionID, messageID: id }),
    );
  }

  /** A content delta as v1 sends it: the part announced (empty) before its first delta. */
  private partDelta(event: OutpostEvent): V1Event[] {
    const e = (type: string, properties: Record<string, unknown>) => this.event(type, properties);
    const data = event.data as {
      sessionID: string;
      messageID: string;
      index: number;
      type: string;
      delta: string;
    };
    if (data.type === 'tool-input') return [];
    const out: V1Event[] = [];
    const entry = this.entry(data.sessionID, data.messageID);
    if (entry.finished) return [];
    const announced = entry.parts;
    if (!announced.has(data.index)) {
      // The content entry has not been sent as a part yet: announce it (empty) before its first delta.
      announced.set(data.index, undefined);
      out.push(
        e('message.part.updated', {
          sessionID: data.sessionID,
          part: {
            id: partID(data.messageID, data.index),
            sessionID: data.sessionID,
            messageID: data.messageID,
            type: data.type,
            text: '',
            time: { start: event.created },
          },
          time: event.created,
        }),
      );
    }
    out.push(
      e('message.part.delta', {
        sessionID: data.sessionID,
        messageID: data.messageID,
        partID: partID(data.messageID, data.index),
        field: 'text',
        delta: data.delta,
      }),
    );
    return out;
  }

  private message(sessionID: string, message: SessionMessageInfo, directory: string): V1Event[] {
    if (message.type === 'user') {
      this.lastUser.set(sessionID, message.id);
      const info = v1MessageInfo(message, { sessionID, directory });
      return [
        this.event('message.updated', { sessionID, info }),
        ...v1Parts(message, sessionID).map((part) =>
          this.event('message.part.updated', { sessionID, part, time: message.time.created }),
        ),
      ];
    }
    if (message.type === 'shell' || message.type === 'compaction') {
      const ctx = { sessionID, directory };
      const { user, assistant } =
        message.type === 'shell' ? v1ShellMessages(message, ctx) : v1CompactionMessages(message, ctx);
      return [user, assistant].flatMap(({ info, parts }) => [
        this.event('message.updated', { sessionID, info }),
        ...parts.map((part) =>
          this.event('message.part.updated', { sessionID, part, time: message.time.created }),
        ),
      ]);
    }
    if (message.type !== 'assistant') return [];
    const assistant = message as AssistantMessage;
    const entry = this.entry(sessionID, assistant.id);
    const announced = entry.parts;
    const info = v1MessageInfo(assistant, { sessionID, directory, parentID: this.lastUser.get(sessionID) });
    const time = assistant.time.completed ?? assistant.time.created;
    const part = (p: object) => this.event('message.part.updated', { sessionID, part: p, time });
    const out: V1Event[] = [this.event('message.updated', { sessionID, info })];
    if (!announced.has(-1)) {
      announced.set(-1, '');
      out.push(part(v1StepStart(assistant, sessionID)));
    }
    assistant.content.forEach((_, index) => {
      // A part sent finished (a tool completed or failed, a text ended) is never sent again: an update held
      // back while the step was being stored may arrive after it with an older state.
      if (entry.final.has(index)) return;
      const shape = v1ContentPart(assistant, sessionID, index);
      const json = JSON.stringify(shape);
      if (announced.get(index) === json) return;
      announced.set(index, json);
      if (isFinal(shape)) entry.final.add(index);
      out.push(part(shape));
    });
    if (assistant.time.completed && !entry.finished) {
      entry.finished = true;
      out.push(part(v1StepFinish(assistant, sessionID)));
    }
    return out;
  }

  /** What was sent of a message; kept until its session goes idle (or is deleted). */
  private entry(sessionID: string, messageID: string): Announced {
    let entry = this.announced.get(messageID);
    if (!entry) {
      entry = { sessionID, parts: new Map(), final: new Set() };
      this.announced.set(messageID, entry);
    }
    return entry;
  }

  /** A run ended (or the session is gone): what was kept for its messages goes. */
  private forget(sessionID: string, deleted = true): void {
    for (const [messageID, entry] of this.announced) {
      if (entry.sessionID === sessionID) this.announced.delete(messageID);
    }
    if (deleted) this.lastUser.delete(sessionID);
  }
}

/** Whether a v1 part is in its last state: a tool that completed or failed, a text or reasoning that ended. */
function isFinal(part: { type: string; state?: { status?: string }; time?: { end?: number } }): boolean {
  if (part.type === 'tool') return part.state?.status === 'completed' || part.state?.status === 'error';
  return part.time?.end !== undefined;
}
