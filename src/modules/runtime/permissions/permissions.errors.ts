import { NotFoundError } from '@/common/errors';

export class PermissionRequestNotFoundError extends NotFoundError {
  constructor(requestID: string) {
    super(`Permission request not found: ${requestID}`, { requestID });
  }
}
