/**
 * A small MCP server for the tests, made with the official SDK: tools `echo`, `add`, `pixel` (an image), `broken`
 * (answers `isError`), `pid`, `crash` (ends the process) and the prompt `greet`. Run as a program (`node test/helpers/mcp-server.js`), it serves
 * on stdio; `mcpTestServer()` gives the same server for a test's own transport (Streamable HTTP in-process).
 */
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const { z } = require('zod');

/** A 1×1 transparent PNG. */
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

function mcpTestServer() {
  const server = new McpServer({ name: 'outpost-test', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echo the text back', inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: 'text', text: `echo: ${text}` }] }),
  );
  server.registerTool(
    'add',
    { description: 'Add two numbers', inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
  );
  server.registerTool('pixel', { description: 'A tiny image' }, async () => ({
    content: [
      { type: 'text', text: 'here is a pixel' },
      { type: 'image', data: PIXEL, mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'test://note', mimeType: 'text/plain', text: 'embedded note' } },
    ],
  }));
  server.registerTool('broken', { description: 'Always fails' }, async () => ({
    content: [{ type: 'text', text: 'the broken tool broke' }],
    isError: true,
  }));
  server.registerTool('pid', { description: 'The process id of the server' }, async () => ({
    content: [{ type: 'text', text: String(process.pid) }],
  }));
  server.registerTool('crash', { description: 'Ends the server process' }, async () => {
    process.stderr.write('crashing on purpose\n');
    process.exit(7);
  });
  server.registerPrompt(
    'greet',
    { description: 'Greet someone', argsSchema: { name: z.string() } },
    ({ name }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Say hello to ${name}.` } }],
    }),
  );
  return server;
}

/**
 * This server as a `local` entry of an `mcp` config. The timeout is longer than opencode's 5 s: starting node and
 * the SDK on a busy test machine can take that long.
 */
const MCP_TEST_LOCAL = { type: 'local', command: ['node', __filename], timeout: 30_000 };

module.exports = { mcpTestServer, MCP_TEST_SERVER: __filename, MCP_TEST_LOCAL };

if (require.main === module) {
  mcpTestServer()
    .connect(new StdioServerTransport())
    .catch((error) => {
      process.stderr.write(`${String(error)}\n`);
      process.exit(1);
    });
}
