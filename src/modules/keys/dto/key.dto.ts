import type { Permission } from '../../console-access/console-principal';

export class ServiceAccountDto {
  id!: string;
  name!: string;
  created_at!: string;
}

/** A user token as lists show it: never the token itself. */
export class TokenDto {
  id!: string;
  name!: string;
  /** `oc_sk_<public id>` or `oc_ut_<public id>`: the part that is not secret. */
  prefix!: string;
  last4!: string;
  created_at!: string;
  expires_at!: string | null;
  last_used_at!: string | null;
  status!: 'active' | 'expired' | 'revoked';
}

/** A key's rate limits as lists show them. */
export class KeyRateLimitDto {
  requests_per_minute!: number | null;
  tokens_per_minute!: number | null;
}

/** A key as lists show it: never the key itself. */
export class KeyDto extends TokenDto {
  permission!: Permission;
  rate_limit!: KeyRateLimitDto;
  allowed_models!: string[] | null;
  /** The key's own monthly budget in US dollars; null: none (its member's and the workspace's still apply). */
  monthly_budget_dollars!: number | null;
}

/** The answer to creating a key: the only time `key` is shown. */
export class CreatedKeyDto {
  id!: string;
  name!: string;
  permission!: Permission;
  rate_limit!: KeyRateLimitDto;
  allowed_models!: string[] | null;
  monthly_budget_dollars!: number | null;
  key!: string;
  prefix!: string;
  expires_at!: string | null;
  created_at!: string;
}

/** The answer to creating a user token: the only time `token` is shown. */
export class CreatedTokenDto {
  id!: string;
  name!: string;
  token!: string;
  prefix!: string;
  expires_at!: string | null;
  created_at!: string;
}
