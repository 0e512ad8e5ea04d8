import { InvalidCursorError } from './sessions.errors';
import { SESSION_ID } from './session-ids';

export type SortOrder = 'asc' | 'desc';

/** The filters of a list query; `parentID: null` means root sessions only. */
export interface SessionFilters {
  search?: string;
  parentID?: string | null;
  directory?: string;
  project?: string;
  subpath?: string;
}

export interface SessionListQuery extends SessionFilters {
  order: SortOrder;
}

/** Where a page starts: strictly after (`next`) or before (`previous`) this session in the ordered list. */
export interface CursorAnchor {
  id: string;
  /** The anchor's `time.updated` (epoch ms). */
  time: number;
  direction: 'previous' | 'next';
}

export interface SessionsCursorData extends SessionListQuery {
  anchor: CursorAnchor;
}

const FILTER_KEYS = ['search', 'directory', 'project', 'subpath'] as const;
const ALLOWED_KEYS = new Set<string>(['order', 'parentID', 'anchor', ...FILTER_KEYS]);
const MAX_CURSOR_LENGTH = 16_384;

/** An opaque cursor: base64url of a JSON holding the query's filters and the anchor. */
export function encodeCursor(data: SessionsCursorData): string {
  return Buffer.from(JSON.stringify(data)).toString('base64url');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Decodes and checks every member: a garbled, truncated or edited cursor is an `InvalidCursorError`. */
export function decodeCursor(raw: string): SessionsCursorData {
  if (raw.length === 0 || raw.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(raw)) {
    throw new InvalidCursorError();
  }
  const bytes = Buffer.from(raw, 'base64url');
  // Buffer ignores stray trailing characters; a canonical re-encoding must give the input back.
  if (bytes.toString('base64url') !== raw) throw new InvalidCursorError();
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new InvalidCursorError();
  }
  if (!isObject(value) || Object.keys(value).some((key) => !ALLOWED_KEYS.has(key))) {
    throw new InvalidCursorError();
  }
  const { order, parentID, anchor } = value;
  if (order !== 'asc' && order !== 'desc') throw new InvalidCursorError();
  if (
    parentID !== undefined &&
    parentID !== null &&
    !(typeof parentID === 'string' && SESSION_ID.test(parentID))
  ) {
    throw new InvalidCursorError();
  }
  for (const key of FILTER_KEYS) {
    const member = value[key];
    if (member !== undefined && (typeof member !== 'string' || member.length > 4096))
      throw new InvalidCursorError();
  }
  if (
    !isObject(anchor) ||
    Object.keys(anchor).length !== 3 ||
    typeof anchor.id !== 'string' ||
    !SESSION_ID.test(anchor.id) ||
    typeof anchor.time !== 'number' ||
    !Number.isSafeInteger(anchor.time) ||
    anchor.time < 0 ||
    (anchor.direction !== 'next' && anchor.direction !== 'previous')
  ) {
    throw new InvalidCursorError();
  }
  return value as unknown as SessionsCursorData;
}
