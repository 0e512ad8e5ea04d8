import { TaggedError } from '../../../common/errors';

export class InvalidCursorError extends TaggedError {
  readonly status = 400;
  constructor() {
    super('Invalid cursor');
  }
}
