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

/** The first failing constraint, with the dotted path of the member that failed. */
function firstFailure(
  errors: ValidationError[],
  prefix = '',
): { field: string; message: string } | undefined {
  for (const error of errors) {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    const message = error.constraints && Object.values(error.constraints)[0];
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
    if (value === undefined || value === null) value = {};
    if (typeof value !== 'object' || Array.isArray(value)) {
      throw new InvalidRequestError(`${kind} must be a JSON object`, undefined, kind);
    }
    const misplaced = arrayForObject(metatype as DtoClass, value as Record<string, unknown>);
    if (misplaced) throw new InvalidRequestError(`${misplaced}: must be an object`, misplaced, kind);
    const instance = plainToInstance(metatype, value, { enableImplicitConversion: false }) as object;
    const errors = await validate(instance, {
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      stopAtFirstError: true,
    });
    const failure = firstFailure(errors);
    if (failure) throw new InvalidRequestError(`${failure.field}: ${failure.message}`, failure.field, kind);
    return instance;
  }
}
