import { NotFoundError } from '@/common/errors';

export class SavedPermissionNotFoundError extends NotFoundError {
  constructor(id: string) {
    super(`Saved permission not found: ${id} (Outpost keeps "always" answers on the session)`, { id });
  }
}
