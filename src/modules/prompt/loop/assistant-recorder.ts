import { Logger } from '@nestjs/common';
import { Clock } from '@/common/clock';
import { EventLocation, EventsPublisher } from '@/common/events';
import type { StepEvent, StepRetry, StepToolCall } from '../../runtime/providers/step.types';
import type {
  AssistantContent,
  AssistantMessage,
  Json,
  ToolState,
} from '../../sessions/session-message.types';
import { SessionsService } from '../../sessions/sessions.service';

type ToolPart = Extract<AssistantContent, { type: 'tool' }>;

/**
 * How often, at most, a streaming message is written while text or reasoning deltas arrive (the first one
 * writes at once).
 */
const SAVE_EVERY_MS = 200;

/** How soon after a block ends (text, reasoning, a tool call) or a tool's state changes the message is written. */
const SAVE_AFTER_MS = 50;

/**
 * The assistant message of one step, built from the stream as it arrives: parts are added and grown in memory,
 * deltas and tool states go out on the event stream at once, and the message is written to the transcript
 * shortly after each block's end or tool state (and every so often during long blocks). Writes are chained, so
 * they land in order and never overlap. A step that closes before a write has started writes the whole message
 * with its close instead (so a quick tool costs no write of its own), and a write still on its way never
 * overwrites a closed message. A message still being stored (`stored`, the step opened by the previous step's
 * close) holds its writes until it is, and its events until `release`, so that they follow its announcement.
 */
export class AssistantRecorder {
  private readonly logger = new Logger(AssistantRecorder.name);
  /** Stream block id → index in `content`. */
  private readonly blocks = new Map<string, number>();
  private writing: Promise<void>;
  /** Events held until `release`, while the message is not announced yet. */
  private held?: Array<() => void>;
  private queued = false;
  private closed = false;
  private lastSave = 0;
  private timer?: NodeJS.Timeout;

  constructor(
    readonly message: AssistantMessage,
    private readonly sessionID: string,
    private readonly location: EventLocation,
    private readonly sessions: SessionsService,
    private readonly events: EventsPublisher,
    private readonly clock: Clock,
    stored?: Promise<unknown>,
  ) {
    this.writing = stored ? stored.then(noop, noop) : Promise.resolve();
    if (stored) this.held = [];
  }

  readonly onEvent = (event: StepEvent): void => {
    const content = this.message.content;
    switch (event.type) {
      case 'text-start':
      case 'reasoning-start':
        this.blocks.set(event.id, content.length);
        content.push({ type: event.type === 'text-start' ? 'text' : 'reasoning', text: '' });
        return;
      case 'text-delta':
      case 'reasoning-delta': {
        const index = this.block(event.id, event.type === 'text-delta' ? 'text' : 'reasoning');
        (content[index] as { text: string }).text += event.text;
        this.delta(index, event.type === 'text-delta' ? 'text' : 'reasoning', event.text);
        return;
      }
      case 'reasoning-end':
        if (event.state) {
          const part = content[this.block(event.id, 'reasoning')] as { state?: Json };
          part.state = event.state as Json;
        }
        this.saveSoon();
        return;
      case 'text-end':
        this.saveSoon();
        return;
      case 'tool-input-start':
        this.blocks.set(event.id, content.length);
        content.push(this.toolPart(event.id, event.name));
        return;
      case 'tool-input-delta': {
        const index = this.blocks.get(event.id);
        if (index === undefined) return;
        const part = content[index] as ToolPart;
        if (part.state.status === 'streaming') part.state.input += event.delta;
        this.delta(index, 'tool-input', event.delta);
        return;
      }
      case 'tool-call':
        this.call(event.call);
        this.saveSoon();
        return;
    }
  };

  /** A retry: what the failed attempt streamed is dropped, and `retry` says when the next attempt starts. */
  readonly onRetry = (retry: StepRetry): void => {
    this.message.content = [];
    this.blocks.clear();
    this.message.retry = { attempt: retry.attempt, at: retry.at, error: retry.error.message };
    this.save(true);
    const data = { sessionID: this.sessionID, messageID: this.message.id, ...this.message.retry };
    this.emit(() => this.events.publish('session.step.retrying', data, this.location));
  };

  /** The tool part of a call (created if the stream never announced it). */
  call(call: StepToolCall): ToolPart {
    let index = this.blocks.get(call.id);
    if (index === undefined) {
      index = this.message.content.length;
      this.blocks.set(call.id, index);
      this.message.content.push(this.toolPart(call.id, call.name));
    }
    const part = this.message.content[index] as ToolPart;
    if (call.providerState) part.providerState = call.providerState as Json;
    return part;
  }

  /** Sets a tool part's state and publishes the message; it is written soon. */
  setTool(part: ToolPart, state: ToolState, time: Partial<ToolPart['time']> = {}): void {
    part.state = state;
    part.time = { ...part.time, ...time };
    this.publish();
    this.saveSoon();
  }

  /** Writes the message now (after earlier writes); `publish` also sends it as `session.message.updated`. */
  save(publish = false): void {
    this.lastSave = Date.now();
    if (publish) this.publish();
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.queued || this.closed) return;
    this.queued = true;
    this.writing = this.writing.then(async () => {
      this.queued = false;
      if (this.closed) return;
      try {
        // The message is serialised when the write starts, so the write holds the state of that moment.
        await this.sessions.updateMessage(this.sessionID, this.message);
      } catch (error) {
        this.logger.warn(`Recording message ${this.message.id} failed: ${String(error)}`);
      }
    });
  }

  /** The step is closing: writes that have not started are dropped (the close writes the whole message). */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Writes the message within `delayMs`, together with whatever else changes meanwhile. */
  private saveSoon(delayMs = SAVE_AFTER_MS): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => this.save(), delayMs);
  }

  /** The message has been announced: the events held meanwhile go out, in order, and later ones at once. */
  release(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const send of held) send();
  }

  private publish(): void {
    const message = structuredClone(this.message);
    this.emit(() =>
      this.events.publish('session.message.updated', { sessionID: this.sessionID, message }, this.location),
    );
  }

  private emit(send: () => void): void {
    if (this.held) this.held.push(send);
    else send();
  }

  private block(id: string, type: 'text' | 'reasoning'): number {
    let index = this.blocks.get(id);
    if (index === undefined) {
      index = this.message.content.length;
      this.blocks.set(id, index);
      this.message.content.push({ type, text: '' });
    }
    return index;
  }

  private toolPart(id: string, name: string): ToolPart {
    return {
      type: 'tool',
      id,
      name,
      state: { status: 'streaming', input: '' },
      time: { created: this.clock.now() },
    };
  }

  private delta(index: number, type: 'text' | 'reasoning' | 'tool-input', delta: string): void {
    const data = { sessionID: this.sessionID, messageID: this.message.id, index, type, delta };
    this.emit(() => this.events.publish('session.message.part.delta', data, this.location));
    // A call's arguments are written when the call is complete; text and reasoning as they grow, the last of a
    // burst too (a reader who loads the transcript while the model pauses sees all that was streamed).
    if (type === 'tool-input') return;
    const since = Date.now() - this.lastSave;
    if (since >= SAVE_EVERY_MS) this.save();
    else this.saveSoon(SAVE_EVERY_MS - since);
  }
}

function noop(): void {}
