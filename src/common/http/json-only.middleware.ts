import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { InvalidRequestError } from '../errors';

function hasBody(request: Request): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}

/** JSON APIs take JSON: a body of another content type is refused before it reaches a handler. */
@Injectable()
export class JsonOnlyMiddleware implements NestMiddleware {
  use(request: Request, _response: Response, next: NextFunction): void {
    if (hasBody(request) && !request.is('application/json')) {
      next(new InvalidRequestError('Content-Type must be application/json', 'content-type', 'Headers'));
      return;
    }
    next();
  }
}
