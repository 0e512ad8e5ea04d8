import { withDeadline } from '@/common/deadline';
import { LocationLoadTimeoutError } from './locations.errors';
import { ResolvedLocation } from './location.types';

export interface LocationCacheOptions<T> {
  build: (location: ResolvedLocation) => Promise<T>;
  /** Called when a forgotten value was rebuilt, with both, so a change can be announced. */
  onRebuilt?: (location: ResolvedLocation, before: T, after: T) => void;
  /** How long a read waits for a value being built before it fails (503); the build goes on for later reads. */
  deadlineMs: number;
}

/**
 * What a service builds per location (config, agents, plugins), cached by directory until `forget`. A forgotten
 * value is kept until the rebuild finishes, so `onRebuilt` can compare and announce a change. Every read has a
 * deadline: a build that hangs fails the requests waiting on it (503), not the server.
 */
export class LocationCache<T> {
  private readonly built = new Map<string, Promise<T>>();
  private readonly previous = new Map<string, Promise<T>>();

  constructor(private readonly options: LocationCacheOptions<T>) {}

  get(location: ResolvedLocation): Promise<T> {
    let value = this.built.get(location.directory);
    if (!value) {
      value = this.rebuild(location);
      this.built.set(location.directory, value);
      // A failed build is not cached: the next read tries again.
      value.catch(() => {
        if (this.built.get(location.directory) === value) this.built.delete(location.directory);
      });
    }
    const { deadlineMs } = this.options;
    return withDeadline(
      value,
      deadlineMs,
      () => new LocationLoadTimeoutError(location.directory, deadlineMs),
    );
  }

  /** The directories with a value (built or building). */
  directories(): string[] {
    return [...this.built.keys()];
  }

  peek(directory: string): Promise<T> | undefined {
    return this.built.get(directory);
  }

  forget(directory?: string): void {
    for (const dir of directory ? [directory] : [...this.built.keys()]) {
      const prior = this.built.get(dir);
      if (prior && this.options.onRebuilt && !this.previous.has(dir)) this.previous.set(dir, prior);
      this.built.delete(dir);
    }
  }

  private async rebuild(location: ResolvedLocation): Promise<T> {
    // What this build replaces, taken as it starts. Taken once it was built, a value forgotten while it was still
    // being built was handed back to itself, and waited for itself for ever (with every request waiting on it).
    const prior = this.previous.get(location.directory);
    this.previous.delete(location.directory);
    const after = await this.options.build(location);
    const { onRebuilt } = this.options;
    // Compared once the value it replaces is there, without holding this one (at once when it is).
    if (prior && onRebuilt)
      prior.then(
        (before) => onRebuilt(location, before, after),
        () => undefined,
      );
    return after;
  }
}
