import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import type { McpConnection } from './mcp-connection';
import { resolveEnv } from './mcp-env';
import { McpOAuthProvider } from './mcp-oauth-provider';
import { McpOAuthFailedError, McpUnsupportedOAuthError } from './mcp.errors';

/** The OAuth client of a remote server with OAuth, for its URL as it is now (`{env:…}` read). */
function oauthOf(connection: McpConnection): { url: string; provider: McpOAuthProvider } {
  if (connection.config.type !== 'remote') {
    throw new McpUnsupportedOAuthError(connection.name, 'OAuth is for remote servers; this one is local');
  }
  let url: string;
  try {
    url = resolveEnv(connection.config, connection.env).url!;
  } catch (error) {
    throw new McpOAuthFailedError(connection.name, (error as Error).message);
  }
  const provider = connection.oauthProvider(url);
  if (!provider) throw new McpUnsupportedOAuthError(connection.name, 'its config says "oauth": false');
  return { url, provider };
}

/** Runs one step of the SDK's flow (discovery, registration, PKCE, code exchange), its failure a 400. */
async function step(connection: McpConnection, run: () => Promise<string>): Promise<string> {
  try {
    return await run();
  } catch (error) {
    throw new McpOAuthFailedError(connection.name, error instanceof Error ? error.message : String(error));
  }
}

/**
 * `POST /mcp/{name}/auth`: a fresh flow (the stored tokens dropped): the client registered when the server allows
 * it, a PKCE verifier kept, and the URL the person opens to authorize.
 */
export async function startOAuth(
  connection: McpConnection,
): Promise<{ authorizationUrl: string; oauthState: string }> {
  const { url, provider } = oauthOf(connection);
  provider.invalidateCredentials('tokens');
  const result = await step(connection, () => auth(provider, { serverUrl: url, fetchFn: connection.fetch }));
  if (result !== 'REDIRECT' || !provider.authorizationUrl) {
    throw new McpOAuthFailedError(connection.name, 'the server gave no authorization URL');
  }
  return { authorizationUrl: provider.authorizationUrl.toString(), oauthState: provider.pendingState ?? '' };
}

/** `POST /mcp/{name}/auth/callback` `{code}`: the code exchanged for tokens (kept in the data folder). */
export async function finishOAuth(connection: McpConnection, code: string): Promise<void> {
  const { url, provider } = oauthOf(connection);
  const options = { serverUrl: url, authorizationCode: code, fetchFn: connection.fetch };
  const result = await step(connection, () => auth(provider, options));
  if (result !== 'AUTHORIZED') throw new McpOAuthFailedError(connection.name, 'the code was not accepted');
}

/** `DELETE /mcp/{name}/auth`: the server's stored client and tokens forgotten. */
export function removeOAuth(connection: McpConnection): void {
  oauthOf(connection).provider.invalidateCredentials('all');
}
