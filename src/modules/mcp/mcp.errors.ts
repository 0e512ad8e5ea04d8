import { NotFoundError, TaggedError } from '@/common/errors';

export class McpServerNotFoundError extends NotFoundError {
  constructor(name: string) {
    super(`MCP server not found: ${name}`, { name });
  }
}

/**
 * The OAuth routes: Outpost runs no OAuth flow for MCP servers yet. opencode's `McpUnsupportedOAuthError` is
 * `{ error }`, so the body carries the reason as `error` too.
 */
export class McpUnsupportedOAuthError extends TaggedError {
  readonly status = 400;
  constructor(name: string) {
    const message = `OAuth for MCP servers is not supported by Outpost: give ${name} a token in its "headers"`;
    super(message, { name, error: message });
  }
}
