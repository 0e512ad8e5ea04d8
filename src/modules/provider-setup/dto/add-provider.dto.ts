import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  IsUrl,
  Length,
  Matches,
  ValidateIf,
} from 'class-validator';

export const PROVIDER_KINDS = ['openai', 'anthropic', 'openai-compatible'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** `POST /api/provider`: a provider for every location, its key kept in the data folder. */
export class AddProviderDto {
  /** OpenAI, Anthropic, or any server that speaks OpenAI's chat API (then `baseURL` is needed). */
  @IsIn(PROVIDER_KINDS, { message: 'must be one of openai, anthropic, openai-compatible' })
  kind!: ProviderKind;

  /** The provider's id in config and in model references (`<id>/<model>`), e.g. `openai` or `local-llm`. */
  @Matches(/^[a-z0-9][a-z0-9-]{0,39}$/, {
    message: 'must be 1 to 40 lowercase letters, digits or dashes, starting with a letter or digit',
  })
  id!: string;

  /** A name for people; defaults to the id. */
  @IsOptional()
  @IsString()
  @Length(1, 100, { message: 'must be 1 to 100 characters' })
  name?: string;

  /** The API root, e.g. `http://127.0.0.1:11434/v1`; required for `openai-compatible`. */
  @ValidateIf((body: AddProviderDto) => body.kind === 'openai-compatible' || body.baseURL !== undefined)
  @IsUrl(
    { protocols: ['http', 'https'], require_protocol: true, require_tld: false },
    { message: 'must be an http(s) URL' },
  )
  baseURL?: string;

  /** The provider's API key. Stored in the data folder (mode 0600), never in a config file, never returned. */
  @IsString({ message: 'must be a string' })
  @Length(1, 1000, { message: 'must be 1 to 1000 characters' })
  apiKey!: string;

  /** The model ids to offer, e.g. `gpt-4.1` or `claude-sonnet-4-5`. */
  @IsArray({ message: 'must be a list of model ids' })
  @ArrayMinSize(1, { message: 'must name at least one model' })
  @ArrayMaxSize(50, { message: 'may name at most 50 models' })
  @Matches(/^[A-Za-z0-9][A-Za-z0-9._:/@-]{0,99}$/, {
    each: true,
    message: 'must be model ids (letters, digits and . _ : / @ -)',
  })
  models!: string[];
}

export class AddedProviderDto {
  id!: string;
  /** The AI SDK package that drives it. */
  package!: string;
  models!: string[];
  /** What outpost.json holds instead of the key, e.g. `{env:OUTPOST_KEY_OPENAI}`. */
  keyReference!: string;
  /** The config file the provider was written into. */
  configFile!: string;
}
