import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** The test MCP server (mcp-server.js): tools `echo`, `add`, `pixel`, `broken`, prompt `greet`. */
export function mcpTestServer(): McpServer;
/** The file to run with `node` for the same server on stdio. */
export const MCP_TEST_SERVER: string;
