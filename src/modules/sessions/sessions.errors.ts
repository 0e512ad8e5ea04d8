import { NotFoundError, TaggedError } from '@/common/errors';

export class SessionNotFoundError extends NotFoundError {
  constructor(sessionID: string) {
    super(`Session not found: ${sessionID}`, { sessionID });
  }
}

export class MessageNotFoundError extends NotFoundError {
  constructor(sessionID: string, messageID: string) {
    super(`Message not found: ${messageID}`, { sessionID, messageID });
  }
}

export class InvalidCursorError extends TaggedError {
  readonly status = 400;
  constructor() {
    super('Invalid cursor');
  }
}
