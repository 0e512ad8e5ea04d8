import { NotFoundError } from '../../../common/errors';

export class SessionNotFoundError extends NotFoundError {
  constructor(sessionID: string) {
    super(`Session not found: ${sessionID}`, { sessionID });
  }
}
