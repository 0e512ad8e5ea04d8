/** opencode's `McpStatus`: what `GET /mcp` answers per server. */
export type McpStatus =
  | { status: 'connected' }
  | { status: 'disabled' }
  | { status: 'failed'; error: string }
  | { status: 'needs_auth' }
  | { status: 'needs_client_registration'; error: string };

/** opencode's default for connecting and listing tools. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
/** The SDK's own default for one request, which opencode keeps for tool calls. */
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;
