import { ApiExtension } from '@nestjs/swagger';

export const ERROR_EXTENSION_PREFIX = 'x-error-';

/**
 * Documents an error response of an operation. Unlike `@ApiResponse` it does not hide the success response
 * the swagger plugin infers; `buildDocuments` turns it into a `responses` entry with the tagged-error body.
 */
export const ApiErrorResponse = (status: number, tag: string, description: string) =>
  ApiExtension(`${ERROR_EXTENSION_PREFIX}${status}`, { tag, description });
