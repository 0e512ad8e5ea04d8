import type { SessionMessageInfo } from './session-message.types';
import type { ModelRef, SessionInfo, SessionOutcome, Tokens } from './session.types';

/** A session's events (its record, its drain, its messages and steps), added to the event catalog. */
declare module '@/common/events/event-catalog' {
  interface EventCatalog {
    'session.created': { sessionID: string; info: SessionInfo };
    'session.updated': { sessionID: string; info: SessionInfo };
    'session.deleted': { sessionID: string; info: SessionInfo };
    'session.agent.selected': { sessionID: string; agent: string };
    'session.model.selected': { sessionID: string; model: ModelRef };
    'session.moved': {
      sessionID: string;
      location: { directory: string };
      projectID: string;
      subpath?: string;
    };
    /** A drain started working on the session (it is listed as active until `session.idle`). */
    'session.execution.started': { sessionID: string };
    'session.execution.succeeded': { sessionID: string };
    'session.execution.failed': { sessionID: string; error: { type: string; message: string } };
    'session.execution.interrupted': { sessionID: string; reason: 'user' | 'shutdown' | 'deleted' };
    /** The drain ended: the session's `time.idle` and `outcome` are set. */
    'session.idle': { sessionID: string; outcome: SessionOutcome };
    /** A message was added to the transcript (user prompts, the assistant message of a step). */
    'session.message.created': { sessionID: string; message: SessionMessageInfo };
    /** A message deleted (a revert made final); `answerID`: the v1 answer shown for it (commands, compactions). */
    'session.message.removed': { sessionID: string; messageID: string; answerID?: string };
    /** A provider turn failed for a passing reason and is tried again at `at` (epoch ms). */
    'session.step.retrying': {
      sessionID: string;
      messageID: string;
      attempt: number;
      at: number;
      error: string;
    };
    /** A compaction finished: the model gets its summary instead of the turns before it. */
    'session.compacted': { sessionID: string; messageID: string; reason: 'auto' | 'manual' };
    /** A message changed as a whole (a tool's state, a retry, the end of a step). */
    'session.message.updated': { sessionID: string; message: SessionMessageInfo };
    /** Streamed text, reasoning or tool input of the assistant message's part at `index`. */
    'session.message.part.delta': {
      sessionID: string;
      messageID: string;
      index: number;
      type: 'text' | 'reasoning' | 'tool-input';
      delta: string;
    };
    /** One provider turn began (`messageID`: its assistant message). */
    'session.step.started': { sessionID: string; messageID: string; agent: string; model: ModelRef };
    'session.step.ended': {
      sessionID: string;
      messageID: string;
      finish: string;
      /** USD */
      cost: number;
      tokens: Tokens;
    };
  }
}
