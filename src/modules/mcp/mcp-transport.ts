import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerConfig } from '../location-config/mcp-config';
import { childEnv } from '../runtime/tools/bash.tool';

/** How a remote server is reached: by Streamable HTTP first, then (for older servers) by SSE. */
export type RemoteKind = 'streamable-http' | 'sse';

/** A local server: its command run in the location, with the server's environment (less its own settings). */
export function localTransport(server: McpServerConfig, directory: string): StdioClientTransport {
  const [command, ...args] = server.command!;
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...childEnv(), ...server.environment })) {
    if (value !== undefined) env[name] = value;
  }
  return new StdioClientTransport({ command, args, env, cwd: directory, stderr: 'pipe' });
}

/**
 * A remote server's transport of one kind, every request sent through `fetch` (the outbound guard), OAuth's
 * tokens sent (and refreshed) by `authProvider` when the server has OAuth.
 */
export function remoteTransport(
  server: McpServerConfig,
  kind: RemoteKind,
  fetch: FetchLike,
  authProvider?: OAuthClientProvider,
): Transport {
  const url = new URL(server.url!);
  const options = {
    fetch,
    authProvider,
    ...(server.headers ? { requestInit: { headers: server.headers } } : {}),
  };
  return kind === 'streamable-http'
    ? new StreamableHTTPClientTransport(url, options)
    : new SSEClientTransport(url, options);
}
