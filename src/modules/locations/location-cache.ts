import { ResolvedLocation } from './location.types';

/**
 * What a service builds per location (config, agents, plugins), cached by directory until `forget`. A forgotten
 * value is kept until the rebuild finishes, so `onRebuilt` can compare and announce a change.
 */
export class LocationCache<T> {
  private readonly built = new Map<string, Promise<T>>();
  private readonly previous = new Map<string, Promise<T>>();

  constructor(
    private readonly build: (location: ResolvedLocation) => Promise<T>,
    private readonly onRebuilt?: (location: ResolvedLocation, before: T, after: T) => void,
  ) {}

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
    return value;
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
      if (prior && this.onRebuilt && !this.previous.has(dir)) this.previous.set(dir, prior);
      this.built.delete(dir);
    }
  }

  private async rebuild(location: ResolvedLocation): Promise<T> {
    const after = await this.build(location);
    const prior = this.previous.get(location.directory);
    if (prior && this.onRebuilt) {
      this.previous.delete(location.directory);
      const before = await prior.catch(() => undefined);
      if (before !== undefined) this.onRebuilt(location, before, after);
    }
    return after;
  }
}
