/**
 * opencode's identifier formats: `<prefix>_` + 16 hex + 12 base62 (v2), or 12 hex + 14 base62 (v1).
 * Anything else in a path, a body or a cursor is a malformed id (400).
 */
function idPattern(prefix: string): RegExp {
  return new RegExp(`^${prefix}_(?:[0-9a-f]{16}[0-9A-Za-z]{12}|[0-9a-f]{12}[0-9A-Za-z]{14})$`);
}

export const SESSION_ID = idPattern('ses');
export const MESSAGE_ID = idPattern('msg');
