import type { Tokens } from './types';

const usd = new Intl.NumberFormat(undefined, {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 4,
});
const count = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });

export function formatCost(value: number | undefined): string {
  return usd.format(value ?? 0);
}

export function formatCount(value: number | undefined): string {
  return count.format(value ?? 0);
}

export function totalTokens(tokens: Tokens | undefined): number {
  if (!tokens) return 0;
  return tokens.input + tokens.output + tokens.reasoning + tokens.cache.read + tokens.cache.write;
}

/** "3 min ago", "yesterday", or a date, in the browser's language and time zone. */
export function formatWhen(epochMs: number, now = Date.now()): string {
  const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  const seconds = Math.round((epochMs - now) / 1000);
  if (Math.abs(seconds) < 60) return rtf.format(seconds, 'second');
  const minutes = Math.round(seconds / 60);
  if (Math.abs(minutes) < 60) return rtf.format(minutes, 'minute');
  const hours = Math.round(minutes / 60);
  if (Math.abs(hours) < 24) return rtf.format(hours, 'hour');
  const days = Math.round(hours / 24);
  if (Math.abs(days) < 7) return rtf.format(days, 'day');
  return new Date(epochMs).toLocaleDateString();
}

/** The last two segments of a directory, for narrow places. */
export function shortPath(directory: string): string {
  const parts = directory.split('/').filter(Boolean);
  return parts.length <= 2 ? directory : `…/${parts.slice(-2).join('/')}`;
}

/** A session's title opencode's clients give it until a real one is written (`New session - <ISO time>`). */
const PLACEHOLDER_TITLE = /^New session - (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)$/;

/**
 * A session's title for a person: its own, or while it has none (or only the placeholder, which it keeps when
 * titling fails) "New session" with the time it began, in the browser's language and time zone.
 */
export function sessionTitle(session: { title?: string | null }): string {
  const title = session.title?.trim();
  if (!title) return 'Untitled session';
  const placeholder = PLACEHOLDER_TITLE.exec(title);
  if (!placeholder) return title;
  const started = new Date(placeholder[1]);
  const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(
    started,
  );
  return `New session · ${when}`;
}
