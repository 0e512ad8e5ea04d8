import type { PermissionRule, Ruleset } from '../../location-config/config.types';

/** `Permission.Rule` (from the config types): `action` and `resource` are wildcards (`*` any text, `?` one character). */
export type { PermissionRule };

/** `Permission.Ruleset`: evaluated in order, the last matching rule wins. */
export type PermissionRuleset = Ruleset;

export type PermissionEffect = PermissionRule['effect'];

export type PermissionReply = 'once' | 'always' | 'reject';

/** A pending `ask`, as listed at `GET /api/session/{id}/permission` and sent with `permission.asked`. */
export interface PermissionRequest {
  id: string;
  sessionID: string;
  /** The action asked about: `edit`, `bash`, `external_directory`, ... */
  permission: string;
  /** The resources of this call: paths, the command, ... */
  patterns: string[];
  /** The resources an `always` reply allows from now on in this session. */
  always: string[];
  metadata: Record<string, unknown>;
  tool?: { messageID: string; callID: string };
  time: { created: number };
}

/** How a request was settled. `rules` are the allow rules to add to the session's `permissions` (`always`). */
export interface PermissionAnswer {
  reply: PermissionReply;
  rules: PermissionRule[];
  /** Why it was rejected: the person's message, `location reloaded`, `interrupted`. */
  reason?: string;
  /** The person answered (a reply), rather than the server (a reload, an interrupt). */
  byPerson?: boolean;
}
