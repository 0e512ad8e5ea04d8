import { Inject, Injectable } from '@nestjs/common';
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { locationsConfig, LocationsConfig } from './locations.config';
import { LocationCache, LocationCacheOptions } from './location-cache';
import { LocationNotFoundError } from './locations.errors';
import { ResolvedLocation } from './location.types';
import { ProjectResolver } from './project-resolver';

/**
 * Resolves project directories into locations. Resolved locations are cached by their real path;
 * `all()` lists the loaded ones (what a reload rebuilds).
 */
@Injectable()
export class LocationsService {
  private readonly loaded = new Map<string, ResolvedLocation>();

  constructor(
    @Inject(locationsConfig.KEY) private readonly config: LocationsConfig,
    private readonly projects: ProjectResolver,
  ) {}

  get defaultDirectory(): string {
    return this.config.defaultDirectory;
  }

  /** The named directory, or the server default. Relative, missing or non-directory paths are not found. */
  async resolve(directory?: string | null): Promise<ResolvedLocation> {
    const requested = directory ?? this.config.defaultDirectory;
    if (!isAbsolute(requested) || requested.includes('\0')) throw new LocationNotFoundError(requested);
    // The real path: symlinks and `..` resolve to what the path really names.
    const real = await realpath(requested).catch(() => undefined);
    if (
      !real ||
      !(await stat(real).then(
        (s) => s.isDirectory(),
        () => false,
      ))
    ) {
      throw new LocationNotFoundError(requested);
    }
    const cached = this.loaded.get(real);
    if (cached) return cached;
    const { project, subpath } = await this.projects.resolve(real);
    const location: ResolvedLocation = { directory: real, project, subpath };
    this.loaded.set(real, location);
    return location;
  }

  /** A cache of what a service builds per location, its reads bounded by `OUTPOST_LOCATION_LOAD_TIMEOUT_MS`. */
  cache<T>(options: Omit<LocationCacheOptions<T>, 'deadlineMs'>): LocationCache<T> {
    return new LocationCache({ ...options, deadlineMs: this.config.loadTimeoutMs });
  }

  all(): ResolvedLocation[] {
    return [...this.loaded.values()];
  }

  /** Drops the cache, so the next resolve rebuilds (used by location reload). */
  forget(directory?: string): void {
    if (directory) this.loaded.delete(directory);
    else this.loaded.clear();
  }
}
