import { IsNumber, Matches, Max, Min, ValidateIf } from 'class-validator';

const MAX_DOLLARS = 1_000_000_000;
/** The messages say what to type (class-validator's defaults name decimal places and constraints). */
const AMOUNT = { message: 'must be an amount in US dollars with at most two decimals, e.g. 12.34' };
const NOT_NEGATIVE = { message: 'must not be negative' };
const AT_MOST = { message: 'must be at most $1,000,000,000' };

/** The member a budget belongs to: a person's `usr_…` id or a service account's `sa_…` id. */
export class MemberParamsDto {
  @Matches(/^(usr|sa)_[0-9A-Za-z]{1,40}$/, {
    message: 'must be a member id (usr_…) or a service account id (sa_…)',
  })
  user_id!: string;
}

export class SetMemberBudgetDto {
  /** US dollars per UTC calendar month, at most two decimals, e.g. 75.25. */
  @IsNumber({ maxDecimalPlaces: 2, allowNaN: false, allowInfinity: false }, AMOUNT)
  @Min(0, NOT_NEGATIVE)
  @Max(MAX_DOLLARS, AT_MOST)
  budget_dollars!: number;
}

export class SetDefaultBudgetDto {
  /** US dollars per UTC calendar month for members without their own budget; null: unlimited. */
  @ValidateIf((body: SetDefaultBudgetDto) => body.budget_dollars !== null)
  @IsNumber({ maxDecimalPlaces: 2, allowNaN: false, allowInfinity: false }, AMOUNT)
  @Min(0, NOT_NEGATIVE)
  @Max(MAX_DOLLARS, AT_MOST)
  budget_dollars!: number | null;
}

export class SetWorkspaceBudgetDto {
  /** US dollars per UTC calendar month for the whole workspace, all members together; null: unlimited. */
  @ValidateIf((body: SetWorkspaceBudgetDto) => body.budget_dollars !== null)
  @IsNumber({ maxDecimalPlaces: 2, allowNaN: false, allowInfinity: false }, AMOUNT)
  @Min(0, NOT_NEGATIVE)
  @Max(MAX_DOLLARS, AT_MOST)
  budget_dollars!: number | null;
}

/** The whole workspace's budget for the current UTC month. Money: decimal strings, micro-cents. */
export class WorkspaceBudgetDto {
  /** Null: unlimited. */
  limit_micro_cents!: string | null;
  spent_micro_cents!: string;
  exceeded!: boolean;
  /** Start of the next UTC month. */
  resets_at!: string;
  updated_at!: string | null;
}

/** A member's or service account's budget for the current UTC month. Money: decimal strings, micro-cents. */
export class BudgetMemberDto {
  /** `usr_…` for a person, `sa_…` for a service account. */
  user_id!: string;
  /** Null for a service account. */
  email!: string | null;
  name!: string;
  kind!: 'person' | 'service_account';
  /** e.g. "7525000000" = $75.25; null = unlimited. */
  limit_micro_cents!: string | null;
  spent_micro_cents!: string;
  exceeded!: boolean;
  /** Start of the next UTC month. */
  resets_at!: string;
  /** custom = the member's own budget; default = the workspace default; null = unlimited. */
  source!: 'custom' | 'default' | null;
  /** When the member's own budget was set; null without one. */
  updated_at!: string | null;
}

export class DefaultBudgetDto {
  /** Null: unlimited. */
  limit_micro_cents!: string | null;
  updated_at!: string | null;
}
