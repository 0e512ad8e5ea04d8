import { useEffect, useState } from 'preact/hooks';
import { client, ok } from './api';

/**
 * The project directories this app knows: the server's default location, the directories of recent sessions, and
 * the ones chosen in this browser before.
 */
export function useKnownLocations(): string[] {
  const [known, setKnown] = useState<string[]>(() => remembered());
  useEffect(() => {
    let stop = false;
    void Promise.allSettled([
      ok(client.GET('/api/location')),
      ok(client.GET('/api/session', { params: { query: { limit: '100' } } })),
    ]).then(([location, sessions]) => {
      if (stop) return;
      const found: string[] = [];
      if (location.status === 'fulfilled') found.push(location.value.directory);
      if (sessions.status === 'fulfilled')
        found.push(...sessions.value.data.map((s) => s.location.directory));
      setKnown((before) => unique([...found, ...before]));
    });
    return () => {
      stop = true;
    };
  }, []);
  return known;
}

const KEY = 'outpost.locations';

function remembered(): string[] {
  try {
    const value = JSON.parse(localStorage.getItem(KEY) ?? '[]') as unknown;
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

/** Keeps a directory the person chose, for the next chooser. */
export function rememberLocation(directory: string): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(unique([directory, ...remembered()]).slice(0, 20)));
  } catch {}
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
