import { NotFoundError, TaggedError } from '@/common/errors';

export class McpServerNotFoundError extends NotFoundError {
  constructor(name: string) {
    super(`MCP server not found: ${name}`, { name });
  }
}

/**
 * An OAuth route for a server without OAuth (a local one, or `"oauth": false`), or one Outpost cannot serve.
 * opencode's `McpUnsupportedOAuthError` is `{ error }`, so the body carries the reason as `error` too.
 */
export class McpUnsupportedOAuthError extends TaggedError {
  readonly status = 400;
  constructor(name: string, why: string) {
    const message = `${name}: ${why}`;
    super(message, { name, error: message });
  }
}

/** The OAuth flow of a server failed (discovery, registration, the code exchange): the reason, as a 400. */
export class McpOAuthFailedError extends TaggedError {
  readonly status = 400;
  constructor(name: string, why: string) {
    super(`OAuth for ${name} failed: ${why}`, { name });
  }
}
