export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = ['inference', 'all'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * How the caller proved who they are. `session` is the sign-in cookie; `device_token` is the
 * device-flow access token (`oc_at_…`) that the device sign-in module registers.
 */
export type CredentialKind =
  'session' | 'service_account_key' | 'personal_key' | 'user_token' | 'device_token';

const RANK: Record<Role, number> = { member: 1, admin: 2, owner: 3 };

export function roleAtLeast(role: Role | null | undefined, needed: Role): boolean {
  return role !== null && role !== undefined && RANK[role] >= RANK[needed];
}

/** Who is behind a credential, whatever the route. */
export type CredentialIdentity = {
  credential: CredentialKind;
  /** The key, token or session id (for `last used`, audit and sign-out). */
  credentialId: string;
  /** The person, for every credential but a service-account key. */
  userId: string | null;
  email: string | null;
  /** The person's or the service account's name. */
  name: string;
  /** The service account, for its keys. */
  serviceAccountId: string | null;
  /** `inference` only for Inference-only keys; everything else acts with `all`. */
  permission: Permission;
  /** What an API key is held to on the gateway; absent for every other credential, and for a key without any. */
  controls?: KeyControls;
};

/** A key's own limits on the gateway (set on the Keys page or with `PATCH …/keys/{id}`). */
export interface KeyControls {
  requestsPerMinute: number | null;
  tokensPerMinute: number | null;
  allowedModels: string[] | null;
  /** The key's own monthly budget (micro-cents); null: none. */
  monthlyBudgetMicroCents: bigint | null;
}

/** Who calls the console API, and as what, in which workspace. */
export type ConsolePrincipal = CredentialIdentity & {
  kind: 'console';
  /** The workspace the request acts in (bound, from the path or from `x-org-id`); null on routes without one. */
  workspaceId: string | null;
  /** The caller's role there: the member's role, or `admin` for a service account's All key. */
  role: Role | null;
  /** The request's source address, for the audit log. */
  ip: string;
};

/** The person behind a principal; routes that need one are guarded so that this holds. */
export function personId(principal: ConsolePrincipal): string {
  if (!principal.userId) throw new Error('this route needs a person');
  return principal.userId;
}

/** What a credential lookup finds, before the route's rules are applied. */
export type ResolvedCredential = CredentialIdentity & {
  /** The workspace a key (or a bound device token) belongs to; null for credentials that are not bound. */
  boundWorkspaceId: string | null;
  /**
   * The workspace the request acts in, looked up in the same query: the bound one, or for an unbound
   * credential the one named by the path or `x-org-id`. `found` is false when it does not exist or was
   * deleted; `role` is null when the caller is not a member.
   */
  workspace: { found: boolean; role: Role | null };
  /** When the credential stops working by itself (a cached credential is checked against it on every use). */
  expiresAt?: Date | null;
};
