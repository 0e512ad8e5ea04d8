import type { McpServer } from '../workspace-config/config-document';

/** Where the console's MCP server answers. */
export const CONSOLE_MCP_PATH = '/console/mcp';
/** Its name in the workspace config's `mcp`: the agent's tools are `outpost_websearch`, `outpost_workspace_usage`… */
export const CONSOLE_MCP_SERVER = 'outpost';
/**
 * The variable opencode sets to the device token of the console it is signed in to (and substitutes for
 * `{env:…}` in the console's config); an Outpost instance signed in with `outpost login` answers it too.
 */
export const CONSOLE_TOKEN_VARIABLE = 'OPENCODE_CONSOLE_TOKEN';

/** The entry every member's config gets: the server at the console's address, with the member's own token. */
export function consoleMcpEntry(workspaceId: string, origin: string): McpServer {
  return {
    type: 'remote',
    url: `${origin}${CONSOLE_MCP_PATH}`,
    headers: { Authorization: `Bearer {env:${CONSOLE_TOKEN_VARIABLE}}`, 'x-org-id': workspaceId },
    oauth: false,
  };
}
