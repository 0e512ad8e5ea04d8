import { Type } from 'class-transformer';
import {
  IsDefined,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  ValidateBy,
  ValidateIf,
  ValidateNested,
  ValidationOptions,
} from 'class-validator';
import { AUTH_MODES, AuthMode, StoredModels } from '../connection.entity';
import { ModelKind, SCHEMAS, UpstreamSchema } from '../catalogue-terms';

/** An RFC 9110 field name (a token). */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,100}$/;
/** Headers the gateway sets itself or that frame the request: never the credential's carrier. */
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'content-type',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'proxy-connection',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'cookie',
]);
/** Printable ASCII, no leading or trailing space: what an HTTP header value can carry unchanged. */
const CREDENTIAL = /^[\x21-\x7E](?:[\x20-\x7E]*[\x21-\x7E])?$/;
export const MAX_CREDENTIAL_BYTES = 4096;

export function isHeaderName(value: unknown): boolean {
  return typeof value === 'string' && HEADER_NAME.test(value) && !RESERVED_HEADERS.has(value.toLowerCase());
}

/** An absolute http(s) URL without credentials, query or fragment: the gateway appends the API's path. */
export function isBaseUrl(value: unknown): boolean {
  if (typeof value !== 'string' || value.length > 2048) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.hostname !== '' &&
    !url.username &&
    !url.password &&
    !url.search &&
    !url.hash &&
    !value.includes('?') &&
    !value.includes('#')
  );
}

export const IsBaseUrl = (options?: ValidationOptions) =>
  ValidateBy(
    { name: 'isBaseUrl', validator: { validate: isBaseUrl } },
    { message: 'must be an http(s) URL without credentials, query or fragment', ...options },
  );

const IsHeaderName = (options?: ValidationOptions) =>
  ValidateBy(
    { name: 'isHeaderName', validator: { validate: isHeaderName } },
    {
      message: 'must be a valid HTTP header name (letters, digits, -) and not one the gateway sets itself',
      ...options,
    },
  );

const headerRules = [
  IsString(),
  IsHeaderName(),
  // `header` belongs to mode `header` only.
  ValidateBy(
    {
      name: 'headerForMode',
      validator: {
        validate: (_value, args) => (args?.object as { mode?: AuthMode }).mode !== 'bearer',
      },
    },
    { message: 'is only for mode "header"' },
  ),
];

export const credentialRules = [
  IsString(),
  Length(1, MAX_CREDENTIAL_BYTES, {
    message: `must be 1 to ${MAX_CREDENTIAL_BYTES} characters`,
  }),
  Matches(CREDENTIAL, {
    message: 'must be printable ASCII without leading or trailing spaces',
  }),
];

export function apply(rules: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => rules.forEach((rule) => rule(target, key));
}

export class ConnectionAuthDto {
  /** `bearer`: `Authorization: Bearer <credential>`; `header`: `<header>: <credential>`. */
  @IsIn(AUTH_MODES)
  mode!: AuthMode;

  /** With mode `header`: the header that carries the credential, e.g. `x-api-key` or `api-key`. */
  @ValidateIf((auth: ConnectionAuthDto) => auth.mode === 'header' || auth.header !== undefined)
  @IsDefined({ message: 'is required when mode is "header"' })
  @apply(headerRules)
  header?: string;

  /** The provider's API key. Write-only: answers show only its last four characters. */
  @IsDefined()
  @apply(credentialRules)
  credential!: string;
}

export class CreateConnectionDto {
  @IsString()
  @Length(1, 200)
  name!: string;

  /** The provider's API root, e.g. `https://api.openai.com/v1`; the gateway appends `/chat/completions` etc. */
  @IsDefined()
  @IsBaseUrl()
  base_url!: string;

  @IsIn(SCHEMAS)
  schema!: UpstreamSchema;

  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => ConnectionAuthDto)
  auth!: ConnectionAuthDto;

  /** `{ <model id>: { name, prices?: { input, output, cache_read?, cache_write? } } }`, prices in USD per million tokens. */
  @IsDefined()
  @IsObject()
  models!: StoredModels;
}

/** Changes to the auth: a new mode (with its header), a new header, a new credential, or several. */
export class UpdateConnectionAuthDto {
  @IsOptional()
  @IsIn(AUTH_MODES)
  mode?: AuthMode;

  @IsOptional()
  @apply(headerRules)
  header?: string;

  /** Replaces the stored credential. */
  @IsOptional()
  @apply(credentialRules)
  credential?: string;
}

/** Only the members present change; `models` replaces the whole map. */
export class UpdateConnectionDto {
  @IsOptional()
  @IsString()
  @Length(1, 200)
  name?: string;

  @IsOptional()
  @IsBaseUrl()
  base_url?: string;

  @IsOptional()
  @IsIn(SCHEMAS)
  schema?: UpstreamSchema;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => UpdateConnectionAuthDto)
  auth?: UpdateConnectionAuthDto;

  @IsOptional()
  @IsObject()
  models?: StoredModels;
}

export class ConnectionAuthViewDto {
  mode!: AuthMode;
  /** With mode `header`. */
  header?: string;
  /** The credential's last four characters; null when it is shorter than 8 (nothing of it is shown). */
  credential_last4!: string | null;
}

export class ConnectionPricesDto {
  input!: number;
  output!: number;
  cache_read?: number;
  cache_write?: number;
}

export class ConnectionModelDto {
  name!: string;
  /** USD per million tokens. */
  prices?: ConnectionPricesDto;
  /** `embedding`: served on the embeddings route only; `chat`: everywhere but there; absent: both. */
  kind?: ModelKind;
}

/** A connection as answers show it: never the credential. */
export class ConnectionDto {
  /** `conn_…` */
  id!: string;
  name!: string;
  base_url!: string;
  schema!: UpstreamSchema;
  auth!: ConnectionAuthViewDto;
  models!: Record<string, ConnectionModelDto>;
  /** Where callers send requests: `<origin>/inference/custom/<id>`, then `/chat/completions`, `/responses` or `/messages`. */
  inference_url!: string;
  created_at!: string;
  updated_at!: string;
}
