import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';

/** A key's rate limits on the gateway, per minute, counted by every node together. */
export class RateLimitDto {
  /** Model calls a minute; omitted or null: no limit. */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  requests_per_minute?: number | null;

  /** Input plus output tokens a minute; omitted or null: no limit. */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000_000)
  tokens_per_minute?: number | null;
}

/** What a key is held to on the gateway; `null` removes a control. */
export class KeyControlsDto {
  @IsOptional()
  @ValidateNested()
  @Type(() => RateLimitDto)
  rate_limit?: RateLimitDto | null;

  /** The models (`<provider>/<model>`, `conn_…/<model>`) and routes the key may call; null: any the workspace allows. */
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1, { message: 'must name at least one model or route (null lets the key call any)' })
  @ArrayMaxSize(200)
  @IsString({ each: true })
  @Length(1, 200, { each: true })
  @Matches(/^[\x21-\x7E]+$/, {
    each: true,
    message: 'each model must be printable characters without spaces',
  })
  allowed_models?: string[] | null;

  /** What the key may spend a UTC calendar month, in US dollars (at most two decimals); null: no budget of its own. */
  @ValidateIf((body: KeyControlsDto) => body.monthly_budget_dollars !== null)
  @IsOptional()
  @IsNumber(
    { maxDecimalPlaces: 2, allowNaN: false, allowInfinity: false },
    { message: 'must be an amount in US dollars with at most two decimals, e.g. 12.34' },
  )
  @Min(0, { message: 'must not be negative' })
  @Max(1_000_000_000, { message: 'must be at most $1,000,000,000' })
  monthly_budget_dollars?: number | null;
}

/** The changes to a key: its name, and its controls. */
export class UpdateKeyDto extends KeyControlsDto {
  @IsOptional()
  @IsString()
  @Length(1, 200)
  name?: string;
}
