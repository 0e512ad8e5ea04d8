import { EventEmitter2 } from '@nestjs/event-emitter';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OutpostEvent, PUBLISHED_EVENT } from '../../src/common/events';
import { TestApp } from './test-app';

export function tempDir(prefix = 'outpost-ses-'): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

/** Every event the app publishes from now on. */
export function recordEvents(t: TestApp): OutpostEvent[] {
  const seen: OutpostEvent[] = [];
  t.app.get(EventEmitter2).on(PUBLISHED_EVENT, (event: OutpostEvent) => seen.push(event));
  return seen;
}

/** True when no member anywhere in the value is null (optional members are omitted instead). */
export function hasNoNulls(value: unknown): boolean {
  if (value === null) return false;
  if (Array.isArray(value)) return value.every(hasNoNulls);
  if (typeof value === 'object') return Object.values(value as object).every(hasNoNulls);
  return true;
}
