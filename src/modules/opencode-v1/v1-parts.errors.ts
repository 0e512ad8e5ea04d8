import { NotFoundError } from '@/common/errors';

export class PartNotFoundError extends NotFoundError {
  constructor(sessionID: string, messageID: string, partID: string) {
    super(`Part not found: ${partID}`, { sessionID, messageID, partID });
  }
}
