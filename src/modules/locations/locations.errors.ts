import { DeadlineExceededError, NotFoundError } from '@/common/errors';

export class LocationNotFoundError extends NotFoundError {
  constructor(directory: string) {
    super(`Location not found: ${directory}`, { location: { directory } });
  }
}

/** A location's config, plugins or agents took longer than `OUTPOST_LOCATION_LOAD_TIMEOUT_MS` to load. */
export class LocationLoadTimeoutError extends DeadlineExceededError {
  constructor(directory: string, ms: number) {
    super(`Loading the location ${directory} took longer than ${ms} ms; try again`, 'location', {
      location: { directory },
    });
  }
}
