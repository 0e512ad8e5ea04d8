import { Injectable } from '@nestjs/common';
import { Clock } from '@/common/clock';
import { ConflictError, InvalidRequestError } from '@/common/errors';
import { EventsPublisher } from '@/common/events';
import type {
  AssistantContent,
  AssistantMessage,
  FileAttachment,
  Json,
  UserMessage,
} from '../sessions/session-message.types';
import { MessageNotFoundError } from '../sessions/sessions.errors';
import { SessionsActivity } from '../sessions/sessions-activity';
import { SessionsService } from '../sessions/sessions.service';
import { V1PartDto } from './dto/v1-edit.dto';
import { entryPartID, PART_IDS, partID, REMOVED_PARTS, removedParts } from './v1-message-info';
import { PartNotFoundError } from './v1-parts.errors';
import { V1Part, v1Parts } from './v1-shapes';
import './v1-parts.events';

type Editable = UserMessage | AssistantMessage;

/** Where a v1 part lives in the stored message. */
type Slot = { kind: 'text' } | { kind: 'step'; which: 'start' | 'finish' } | { kind: 'entry'; index: number };

/**
 * opencode's `part.update` and `part.delete` on Outpost's transcript: a v1 part is a user's text or file, or an
 * assistant's step start, content entry (text, reasoning, tool call) or step finish. A removed or replaced part is
 * gone from what the model is sent too. Other parts keep their ids.
 */
@Injectable()
export class V1PartsService {
  constructor(
    private readonly sessions: SessionsService,
    private readonly activity: SessionsActivity,
    private readonly events: EventsPublisher,
    private readonly clock: Clock,
  ) {}

  async remove(sessionID: string, messageID: string, id: string): Promise<true> {
    const { message, location } = await this.editable(sessionID, messageID);
    const slot = this.slot(message, sessionID, id);
    const removed = removedParts(message);
    if (slot.kind === 'entry') {
      const ids = entryIDs(message);
      ids.splice(slot.index, 1);
      if (message.type === 'assistant') message.content.splice(slot.index, 1);
      else message.files!.splice(slot.index, 1);
      message.metadata = { ...message.metadata, [PART_IDS]: ids };
    } else {
      if (slot.kind === 'text') (message as UserMessage).text = '';
      removed.add(id);
      message.metadata = { ...message.metadata, [REMOVED_PARTS]: [...removed] };
    }
    await this.store(sessionID, message);
    this.events.publish('message.part.removed', { sessionID, messageID, partID: id }, location);
    return true;
  }

  async update(sessionID: string, messageID: string, id: string, body: V1PartDto): Promise<V1Part> {
    for (const [field, expected] of [
      ['id', id],
      ['messageID', messageID],
      ['sessionID', sessionID],
    ] as const) {
      if (body[field] !== expected)
        throw new InvalidRequestError(`${field} must be ${expected}, the part's own`, field);
    }
    const { message, location } = await this.editable(sessionID, messageID);
    const slot = this.slot(message, sessionID, id);
    if (slot.kind === 'step') {
      throw new InvalidRequestError(
        `type: step-${slot.which} parts are made from their message; remove one, do not replace it`,
        'type',
      );
    }
    if (message.type === 'user') {
      if (slot.kind === 'text') message.text = textOf(body, 'text');
      else message.files![(slot as { index: number }).index] = fileOf(body);
    } else {
      const index = (slot as { index: number }).index;
      message.content[index] = this.contentOf(body, message.content[index]);
    }
    await this.store(sessionID, message);
    const part = v1Parts(message, sessionID).find((p) => p.id === id)!;
    this.events.publish('message.part.updated', { sessionID, part, time: this.clock.now() }, location);
    return part;
  }

  /** The user or assistant message, while its session is idle (a run rewrites its own messages). */
  private async editable(sessionID: string, messageID: string) {
    const info = await this.sessions.get(sessionID);
    const message = (await this.sessions.messages(sessionID)).find((m) => m.id === messageID);
    if (!message || (message.type !== 'user' && message.type !== 'assistant'))
      throw new MessageNotFoundError(sessionID, messageID);
    if (this.activity.active()[sessionID]) {
      throw new ConflictError(`Session ${sessionID} is running; edit its parts once it is idle`, sessionID);
    }
    return { message: message as Editable, location: info.location };
  }

  private slot(message: Editable, sessionID: string, id: string): Slot {
    if (!v1Parts(message, sessionID).some((part) => part.id === id))
      throw new PartNotFoundError(sessionID, message.id, id);
    if (message.type === 'user' && id === partID(message.id, 0)) return { kind: 'text' };
    if (message.type === 'assistant' && id === partID(message.id, 'start'))
      return { kind: 'step', which: 'start' };
    if (message.type === 'assistant' && id === partID(message.id, 'finish') && message.time.completed)
      return { kind: 'step', which: 'finish' };
    const count = message.type === 'user' ? (message.files ?? []).length : message.content.length;
    for (let index = 0; index < count; index++) {
      if (entryPartID(message, index) === id) return { kind: 'entry', index };
    }
    throw new PartNotFoundError(sessionID, message.id, id);
  }

  /** A text, reasoning or tool part as an assistant's content entry (what it held that v1 does not show kept). */
  private contentOf(body: V1PartDto, prior: AssistantContent): AssistantContent {
    if (body.type === 'text' || body.type === 'reasoning') {
      const text = textOf(body, body.type);
      const same = prior.type === body.type && prior.text === text;
      return same ? prior : { type: body.type, text };
    }
    if (body.type !== 'tool')
      throw new InvalidRequestError('type: must be text, reasoning or tool here', 'type');
    if (typeof body.callID !== 'string' || body.callID === '')
      throw new InvalidRequestError('callID: must be the tool call id', 'callID');
    if (typeof body.tool !== 'string' || body.tool === '')
      throw new InvalidRequestError('tool: must be the tool name', 'tool');
    const kept = prior.type === 'tool' && prior.id === body.callID ? prior : undefined;
    return {
      type: 'tool',
      id: body.callID,
      name: body.tool,
      ...(kept?.executed !== undefined ? { executed: kept.executed } : {}),
      state: toolState(body.state),
      time: kept?.time ?? { created: this.clock.now() },
    };
  }

  private async store(sessionID: string, message: Editable): Promise<void> {
    if (!(await this.sessions.rewriteMessage(sessionID, message)))
      throw new MessageNotFoundError(sessionID, message.id);
  }
}

/** The ids of the message's entries as they are now, so they stay when an entry before them goes. */
function entryIDs(message: Editable): string[] {
  const count = message.type === 'user' ? (message.files ?? []).length : message.content.length;
  return Array.from({ length: count }, (_, index) => entryPartID(message, index));
}

function textOf(body: V1PartDto, type: string): string {
  if (body.type !== type) throw new InvalidRequestError(`type: this part is a ${type} part`, 'type');
  if (typeof body.text !== 'string') throw new InvalidRequestError('text: must be a string', 'text');
  return body.text;
}

const DATA_URL = /^data:([^;,]+);base64,([A-Za-z0-9+/=\s]*)$/;

/** A file part from a `data:` URL (a file by path or link would be read where the prompt reads it). */
function fileOf(body: V1PartDto): FileAttachment {
  if (body.type !== 'file') throw new InvalidRequestError('type: this part is a file part', 'type');
  const data = typeof body.url === 'string' ? DATA_URL.exec(body.url) : null;
  if (!data) throw new InvalidRequestError('url: must be a data: URL (base64)', 'url');
  return {
    data: data[2].replace(/\s/g, ''),
    mime: body.mime ?? data[1],
    source: { type: 'inline' },
    ...(body.filename ? { name: body.filename } : {}),
  };
}

/** v1's tool state (`pending`, `running`, `completed`, `error`) as Outpost stores it. */
function toolState(
  raw: Record<string, unknown> | undefined,
): Extract<AssistantContent, { type: 'tool' }>['state'] {
  const state = raw ?? {};
  const input = (isObject(state.input) ? state.input : {}) as Record<string, Json>;
  const metadata = (isObject(state.metadata) ? state.metadata : {}) as Record<string, Json>;
  switch (state.status) {
    case 'pending':
      return {
        status: 'streaming',
        input: typeof state.raw === 'string' ? state.raw : JSON.stringify(input),
      };
    case 'running':
      return { status: 'running', input, metadata };
    case 'completed':
      if (typeof state.output !== 'string')
        throw new InvalidRequestError('state.output: must be a string', 'state.output');
      return { status: 'completed', input, content: [{ type: 'text', text: state.output }], metadata };
    case 'error':
      if (typeof state.error !== 'string')
        throw new InvalidRequestError('state.error: must be a string', 'state.error');
      return { status: 'error', input, error: { type: 'tool', message: state.error }, metadata };
    default:
      throw new InvalidRequestError(
        'state.status: must be pending, running, completed or error',
        'state.status',
      );
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
