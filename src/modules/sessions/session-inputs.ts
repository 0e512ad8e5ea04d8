import { usdToMicroCents } from '@/common/money';
import { ascendingId } from '@/common/ids';
import type { NewMessage } from './session-messages.repository';
import type { SessionMessageInfo } from './session-message.types';
import type { ModelRef, Ruleset } from './session.types';

/** A `Model.Ref` as clients send it (a `null` variant means none). */
export interface ModelRefInput {
  id: string;
  providerID: string;
  variant?: string | null;
}

export function modelRef(input: ModelRefInput): ModelRef {
  return input.variant
    ? { id: input.id, providerID: input.providerID, variant: input.variant }
    : { id: input.id, providerID: input.providerID };
}

export interface CreateSessionInput {
  id?: string | null;
  parentID?: string | null;
  title?: string | null;
  agent?: string | null;
  model?: ModelRefInput | null;
  location?: { directory?: string | null } | null;
  metadata?: Record<string, unknown> | null;
  permissions?: Ruleset | null;
}

/** PATCH: `undefined` leaves a member alone, `null` clears it. */
export interface UpdateSessionInput {
  title?: string | null;
  metadata?: Record<string, unknown> | null;
  permissions?: Ruleset | null;
}

/** A message to append: id and time default to a fresh `msg_` id and now; cost in USD as on the wire. */
export type AppendMessageInput = SessionMessageInfo extends infer M
  ? M extends SessionMessageInfo
    ? Omit<M, 'id' | 'time'> & { id?: string; time?: { created?: number; completed?: number } }
    : never
  : never;

export type Delivery = 'steer' | 'queue';

/** One keyset page of a transcript, decoded as it is iterated (once). */
export interface TranscriptPage {
  count: number;
  /** The id of the page's last message: the anchor of the next page. */
  last: string | undefined;
  messages(): Iterable<SessionMessageInfo>;
}

export const DEFAULT_AGENT = 'build';

const FOREIGN_KEY_VIOLATION = '23503';

/** Messages per INSERT of an import. */
export const IMPORT_CHUNK = 1000;

export function isForeignKeyViolation(error: unknown): boolean {
  return (error as { code?: string })?.code === FOREIGN_KEY_VIOLATION;
}

/** A message as stored: id and time are columns, usage has its own columns, the rest is `data`. */
export function storedParts(message: SessionMessageInfo) {
  const { id, type: _type, time, ...rest } = message;
  const {
    tokens: _tokens,
    cost: _cost,
    ...data
  } = rest as typeof rest & { tokens?: unknown; cost?: unknown };
  return { id, time, data };
}

export function defaultTitle(time: number): string {
  return `New session - ${new Date(time).toISOString()}`;
}

/** The session lifecycle. Every change publishes its event after the transaction commits. */
/** A message to store: its id, times, tokens and cost (micro-cents) apart, the rest as its data. */
export function storedMessage(sessionID: string, input: AppendMessageInput, now: number): NewMessage {
  const created = input.time?.created ?? now;
  const { type, tokens, cost, time, id, ...data } = input as AppendMessageInput & {
    tokens?: { input: number; output: number; reasoning: number; cache: { read: number; write: number } };
    cost?: number;
  };
  return {
    sessionId: sessionID,
    id: id ?? ascendingId('msg', created),
    type,
    data,
    timeCreated: created,
    timeCompleted: time?.completed ?? null,
    tokens: tokens
      ? {
          input: tokens.input,
          output: tokens.output,
          reasoning: tokens.reasoning,
          cacheRead: tokens.cache.read,
          cacheWrite: tokens.cache.write,
        }
      : null,
    cost: cost === undefined ? null : Number(usdToMicroCents(cost)),
  };
}
