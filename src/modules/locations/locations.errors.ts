import { NotFoundError } from '@/common/errors';

export class LocationNotFoundError extends NotFoundError {
  constructor(directory: string) {
    super(`Location not found: ${directory}`, { location: { directory } });
  }
}
