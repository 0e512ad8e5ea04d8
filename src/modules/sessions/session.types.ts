/** Public shapes of the session API (reference §4.4, §4.5, §4.9, §4.15). Times are epoch ms, money USD. */

export interface ModelRef {
  id: string;
  providerID: string;
  variant?: string;
}

export interface PermissionRule {
  action: string;
  resource: string;
  effect: 'allow' | 'deny' | 'ask';
}

export type Ruleset = PermissionRule[];

export interface Tokens {
  input: number;
  output: number;
  reasoning: number;
  cache: { read: number; write: number };
}

export interface SessionFork {
  sessionID: string;
  /** Absent only when the source had no messages to copy. */
  boundary?: { type: 'before' | 'through'; messageID: string };
}

export type SessionOutcome = 'succeeded' | 'failed' | 'interrupted';

/**
 * A staged revert: the messages from `messageID` on are hidden and the location's files are as they were before
 * them; `snapshot` holds the files as they were when the revert was staged (an unrevert restores it).
 */
export interface SessionRevert {
  messageID: string;
  partID?: string;
  snapshot?: string;
}

/** `Session.Info`: optional members are omitted, never null. */
export interface SessionInfo {
  id: string;
  parentID?: string;
  fork?: SessionFork;
  projectID: string;
  agent?: string;
  model?: ModelRef;
  /** USD */
  cost: number;
  tokens: Tokens;
  outcome?: SessionOutcome;
  time: { created: number; updated: number; idle?: number; viewed?: number; archived?: number };
  title: string;
  location: { directory: string };
  subpath?: string;
  metadata?: Record<string, unknown>;
  permissions?: Ruleset;
  revert?: SessionRevert;
}

export interface SessionsPage {
  data: SessionInfo[];
  cursor: { previous?: string; next?: string };
}
