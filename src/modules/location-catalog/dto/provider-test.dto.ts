import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';

/** `POST /api/provider/{providerID}/test`: which model to try (the provider's first one when omitted). */
export class ProviderTestRequestDto {
  /** A model id of the provider, e.g. `gpt-4.1`. */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  @Matches(/^\S+$/, { message: 'model must be a model id (no spaces)' })
  model?: string;
}

/** What one small call to a location's provider found. */
export class ProviderTestDto {
  /** Whether the provider answered the call with a success. */
  ok!: boolean;
  provider!: string;
  /** The model tried, or null when the provider has none. */
  model!: string | null;
  /** The provider's base URL, when it has one. */
  url!: string | null;
  /** The provider's HTTP status; null when no answer came. */
  status!: number | null;
  latency_ms!: number;
  /** In words: what answered, or why nothing did and what to check. */
  message!: string;
}
