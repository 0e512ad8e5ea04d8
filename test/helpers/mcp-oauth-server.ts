import { DemoInMemoryAuthProvider } from '@modelcontextprotocol/sdk/examples/server/demoInMemoryOAuthProvider.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import express from 'express';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { serveMcp } from './mcp-remote';

export interface OAuthMcp {
  /** The MCP endpoint (`/mcp`), which answers 401 without a token the server issued. */
  url: string;
  close(): Promise<void>;
}

/**
 * The test MCP server behind OAuth on loopback: the SDK's own authorization server (`mcpAuthRouter` with its
 * in-memory demo provider: metadata discovery, dynamic client registration, PKCE, code exchange) and its bearer
 * check in front of the MCP endpoint. `/authorize` answers a redirect to the client's `redirect_uri` with the code
 * at once, as if the person had approved.
 */
export async function startOAuthMcp(): Promise<OAuthMcp> {
  const http = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const provider = new DemoInMemoryAuthProvider();
  const app = express();
  app.use(mcpAuthRouter({ provider, issuerUrl: new URL(base), resourceServerUrl: new URL(`${base}/mcp`) }));
  const bearer = requireBearerAuth({
    verifier: provider,
    resourceMetadataUrl: `${base}/.well-known/oauth-protected-resource/mcp`,
  });
  app.post('/mcp', bearer, express.json(), (req, res) => serveMcp(req, res, req.body));
  http.on('request', app);
  return {
    url: `${base}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
