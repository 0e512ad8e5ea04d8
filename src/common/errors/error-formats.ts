import { Injectable } from '@nestjs/common';
import type { PlainRequest } from '../http/http';
import { TaggedError } from './tagged-error';

/** A surface's own error body for one of our errors. */
export type ErrorBody = (error: TaggedError, request: PlainRequest) => unknown;

/**
 * Error shapes by path prefix, for surfaces whose clients expect another shape than our tagged body (the gateway's
 * OpenAI and Anthropic SDKs). The global filter uses them for every failure under the prefix, those Fastify raises
 * before a controller runs (a malformed body, a wrong content type) included.
 */
@Injectable()
export class ErrorFormats {
  private readonly formats: Array<{ prefix: string; body: ErrorBody }> = [];

  register(prefix: string, body: ErrorBody): void {
    this.formats.push({ prefix, body });
  }

  find(path: string): ErrorBody | undefined {
    return this.formats.find((format) => path.startsWith(format.prefix))?.body;
  }
}
