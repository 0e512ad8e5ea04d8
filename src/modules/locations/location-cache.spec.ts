import { LocationCache } from './location-cache';
import { LocationLoadTimeoutError } from './locations.errors';
import { ResolvedLocation } from './location.types';

const location = { directory: '/projects/app' } as ResolvedLocation;

/** Builds that settle when the test says so, in the order they were started. */
function heldBuilds() {
  const builds: Array<{ finish: (value: string) => void }> = [];
  const build = () => new Promise<string>((resolve) => builds.push({ finish: resolve }));
  return { builds, build };
}

describe('LocationCache', () => {
  it('a value forgotten while it is still being built settles for its readers; the rebuild is compared with it', async () => {
    const { builds, build } = heldBuilds();
    const rebuilt: Array<[string, string]> = [];
    const cache = new LocationCache<string>({
      build,
      onRebuilt: (_, before, after) => rebuilt.push([before, after]),
      deadlineMs: 2_000,
    });
    const first = cache.get(location);
    cache.forget(location.directory);
    const second = cache.get(location);
    // The first build ends before the second: it must not wait for itself.
    builds[0].finish('one');
    await expect(first).resolves.toBe('one');
    builds[1].finish('two');
    await expect(second).resolves.toBe('two');
    expect(rebuilt).toEqual([['one', 'two']]);
    await expect(cache.get(location)).resolves.toBe('two');
  });

  it('a rebuild is there at once, though the value it replaces is still being built', async () => {
    const { builds, build } = heldBuilds();
    const cache = new LocationCache<string>({ build, onRebuilt: () => undefined, deadlineMs: 2_000 });
    void cache.get(location);
    cache.forget(location.directory);
    const second = cache.get(location);
    builds[1].finish('two');
    await expect(second).resolves.toBe('two');
    builds[0].finish('one');
  });

  it('a read waits at most deadlineMs (LocationLoadTimeoutError); the build goes on for later reads', async () => {
    const { builds, build } = heldBuilds();
    const cache = new LocationCache<string>({ build, deadlineMs: 20 });
    const read = cache.get(location);
    await expect(read).rejects.toBeInstanceOf(LocationLoadTimeoutError);
    await expect(read).rejects.toMatchObject({
      status: 503,
      tag: 'ServiceUnavailableError',
      fields: { service: 'location', location: { directory: '/projects/app' } },
    });
    builds[0].finish('late');
    await expect(cache.get(location)).resolves.toBe('late');
    expect(builds).toHaveLength(1);
  });
});
