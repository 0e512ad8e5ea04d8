import { NotFoundError } from '@/common/errors';

export class ProjectNotFoundError extends NotFoundError {
  constructor(projectID: string) {
    super(`Project not found: ${projectID}`, { projectID });
  }
}
