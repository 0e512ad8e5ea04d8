import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { getMetadataStorage, validate, ValidationError, ValidationTypes } from 'class-validator';
import { InvalidRequestError, RequestPart } from '../errors';

const KINDS: Record<ArgumentMetadata['type'], RequestPart> = {
  body: 'Body',
  query: 'Query',
  param: 'Params',
  custom: 'Payload',
};

const PRIMITIVES = new Set<unknown>([String, Number, Boolean, Array, Object]);

/**
 * The first member that failed, with its dotted path, and the first of its rules that failed as the DTO declares
 * them: class-validator checks a member's rules from its last decorator up, so `"5"` for an `@IsNumber() @Max(…)`
 * member would otherwise be told it is too large rather than not a number (its first failure).
 */
function firstFailure(
  errors: ValidationError[],
  prefix = '',
): { field: string; message: string } | undefined {
  for (const error of errors) {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    const message = error.constraints && Object.values(error.constraints).at(-1);
    if (message) return { field, message: message.replace(/^property /, '') };
    const nested = firstFailure(error.children ?? [], field);
    if (nested) return nested;
  }
  return undefined;
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type DtoClass = Function;

/** The nested DTO of each member declared `@ValidateNested()` (one object, not `each`), per DTO class. */
function nestedObjects(metatype: DtoClass): Map<string, DtoClass> {
  const nested = new Map<string, DtoClass>();
  const rules = getMetadataStorage().getTargetValidationMetadatas(metatype, '', true, false);
  for (const rule of rules) {
    if (rule.type !== ValidationTypes.NESTED_VALIDATION || rule.each) continue;
    const type = defaultMetadataStorage.findTypeMetadata(metatype, rule.propertyName)?.typeFunction();
    if (typeof type === 'function') nested.set(rule.propertyName, type as DtoClass);
  }
  return nested;
}

/**
 * The first member that holds an array where its DTO declares one nested object: class-transformer would turn
 * it into something else (`[]` into `{}`), so it is refused here, at any depth.
 */
function arrayForObject(metatype: DtoClass, value: Record<string, unknown>, prefix = ''): string | undefined {
  for (const [key, type] of nestedObjects(metatype)) {
    const item = value[key];
    if (item === null || typeof item !== 'object') continue;
    const field = prefix ? `${prefix}.${key}` : key;
    if (Array.isArray(item)) return field;
    const deeper = arrayForObject(type, item as Record<string, unknown>, field);
    if (deeper) return deeper;
  }
  return undefined;
}

/** The members a DTO declares (with any validation rule). */
function declared(metatype: DtoClass): Set<string> {
  return new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(metatype, '', true, false)
      .map((rule) => rule.propertyName),
  );
}

/**
 * opencode's clients add `directory` (the project directory) and `workspace` to every GET, next to
 * `location[directory]`; `x-opencode-directory` arrives as `directory` too (see app.setup). Where a query DTO has a
 * `location` and no `directory` of its own, `directory` is that location (both given and different: a 400 naming
 * both); where it has neither, they say nothing the route needs and are dropped. A DTO that declares them keeps them.
 */
function opencodeQuery(metatype: DtoClass, value: Record<string, unknown>): Record<string, unknown> {
  if (!('directory' in value) && !('workspace' in value)) return value;
  const members = declared(metatype);
  const { directory, workspace, ...rest } = value;
  const out: Record<string, unknown> = members.has('workspace') ? { ...rest, workspace } : { ...rest };
  if (directory === undefined || members.has('directory')) {
    if (directory !== undefined) out.directory = directory;
    return out;
  }
  if (!members.has('location')) {
    // The `location[directory]` (and `[workspace]`) the clients add next to `directory` says nothing here either.
    const { location: added, ...others } = out;
    return addedLocation(added, directory) ? others : out;
  }
  const location = (rest.location ?? {}) as Record<string, unknown>;
  if (typeof location !== 'object' || Array.isArray(location)) return { ...out, location };
  if (location.directory !== undefined && location.directory !== directory) {
    throw new InvalidRequestError(
      'directory and location[directory] name different directories; send one of them',
      'directory',
      'Query',
    );
  }
  return { ...out, location: { ...location, directory } };
}

/** A `location` query object holding only what opencode's clients add: the same `directory`, a `workspace`. */
function addedLocation(location: unknown, directory: unknown): boolean {
  if (typeof location !== 'object' || location === null || Array.isArray(location)) return false;
  const { directory: named, workspace: _workspace, ...other } = location as Record<string, unknown>;
  return Object.keys(other).length === 0 && (named === undefined || named === directory);
}

/**
 * Validates every DTO-typed argument: unknown members, wrong types and missing required members are a
 * 400 `InvalidRequestError` naming the field and the part of the request (`kind`).
 */
@Injectable()
export class RequestValidationPipe implements PipeTransform {
  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const { metatype } = metadata;
    if (!metatype || PRIMITIVES.has(metatype)) return value;
    const kind = KINDS[metadata.type];
    // A JSON `null` body is a body that says nothing a DTO could take: refused, where no body at all reads as `{}`.
    if (value === null && metadata.type === 'body')
      throw new InvalidRequestError('Body must be a JSON object, not null', undefined, kind);
    if (value === undefined || value === null) value = {};
    if (typeof value !== 'object' || Array.isArray(value)) {
      throw new InvalidRequestError(`${kind} must be a JSON object`, undefined, kind);
    }
    if (metadata.type === 'query')
      value = opencodeQuery(metatype as DtoClass, value as Record<string, unknown>);
    const misplaced = arrayForObject(metatype as DtoClass, value as Record<string, unknown>);
    if (misplaced) throw new InvalidRequestError(`${misplaced}: must be an object`, misplaced, kind);
    const instance = plainToInstance(metatype, value, { enableImplicitConversion: false }) as object;
    const errors = await validate(instance, {
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
    });
    const failure = firstFailure(errors);
    if (failure) throw new InvalidRequestError(`${failure.field}: ${failure.message}`, failure.field, kind);
    return instance;
  }
}
