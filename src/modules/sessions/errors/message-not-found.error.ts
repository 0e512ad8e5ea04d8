import { NotFoundError } from '../../../common/errors';

export class MessageNotFoundError extends NotFoundError {
  constructor(sessionID: string, messageID: string) {
    super(`Message not found: ${messageID}`, { sessionID, messageID });
  }
}
