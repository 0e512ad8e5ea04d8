import { NotFoundError } from '@/common/errors';

export class QuestionNotFoundError extends NotFoundError {
  constructor(requestID: string) {
    super(`Question not found: ${requestID}`, { requestID });
  }
}
