import type { Role } from '../console-access/console-principal';

/** An invitation that can still be accepted, as its page shows it. */
export interface UsableInvite {
  workspace: string;
  email: string;
  role: Role;
  /** The person who sent it (none when it was made by the system, or that person is gone). */
  invitedBy?: { name: string; email: string };
}
