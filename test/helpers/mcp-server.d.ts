import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** The test MCP server (mcp-server.js): tools `echo`, `add`, `pixel`, `broken`, prompt `greet`. */
export function mcpTestServer(): McpServer;
/** The file to run with `node` for the same server on stdio. */
export const MCP_TEST_SERVER: string;
/** This server as a `local` entry of an `mcp` config (`node mcp-server.js`, a 30 s timeout). */
export const MCP_TEST_LOCAL: { type: 'local'; command: string[]; timeout: number };
