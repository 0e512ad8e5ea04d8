import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate, ValidationError } from 'class-validator';
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
