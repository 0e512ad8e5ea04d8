import { randomBytes } from 'node:crypto';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { McpServerConfig } from '../location-config/mcp-config';
import { McpOAuthStore } from './mcp-oauth.store';

/** opencode's callback address: where the browser lands with the code (its CLI listens there). */
export const DEFAULT_REDIRECT_URI = 'http://127.0.0.1:19876/mcp/oauth/callback';

/** The `oauth` member of a remote server's config (opencode's `McpOAuthConfig`). */
interface OAuthSettings {
  clientId?: string;
  clientSecret?: string;
  scope?: string;
  redirectUri?: string;
}

/**
 * The SDK's OAuth client for one remote server: PKCE, dynamic client registration when no `clientId` is
 * configured, tokens and the registered client kept in the data folder (`McpOAuthStore`). The authorization URL
 * is not opened here: it is kept for `POST /mcp/{name}/auth` to hand to the person.
 */
export class McpOAuthProvider implements OAuthClientProvider {
  /** Set when the SDK asks for the person to authorize (`redirectToAuthorization`). */
  authorizationUrl?: URL;
  private readonly settings: OAuthSettings;

  constructor(
    private readonly url: string,
    config: McpServerConfig,
    private readonly store: McpOAuthStore,
  ) {
    this.settings = (config.oauth || {}) as OAuthSettings;
  }

  get redirectUrl(): string {
    return this.settings.redirectUri ?? DEFAULT_REDIRECT_URI;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      redirect_uris: [this.redirectUrl],
      client_name: 'Outpost',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: this.settings.clientSecret ? 'client_secret_post' : 'none',
      ...(this.settings.scope ? { scope: this.settings.scope } : {}),
    };
  }

  state(): string {
    const state = randomBytes(16).toString('hex');
    this.store.update(this.url, { state });
    return state;
  }

  /** The state of the flow in progress (`oauthState`). */
  get pendingState(): string | undefined {
    return this.store.get(this.url).state;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const { clientId, clientSecret } = this.settings;
    if (clientId) return { client_id: clientId, ...(clientSecret ? { client_secret: clientSecret } : {}) };
    return this.store.get(this.url).client;
  }

  saveClientInformation(client: OAuthClientInformationMixed): void {
    this.store.update(this.url, { client });
  }

  tokens(): OAuthTokens | undefined {
    return this.store.get(this.url).tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.store.update(this.url, { tokens, codeVerifier: undefined, state: undefined });
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.authorizationUrl = authorizationUrl;
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.store.update(this.url, { codeVerifier });
  }

  codeVerifier(): string {
    const verifier = this.store.get(this.url).codeVerifier;
    if (!verifier) throw new Error('No OAuth flow in progress: start one with POST /mcp/{name}/auth');
    return verifier;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all') this.store.remove(this.url);
    else if (scope === 'client') this.store.update(this.url, { client: undefined });
    else if (scope === 'tokens') this.store.update(this.url, { tokens: undefined });
    else if (scope === 'verifier') this.store.update(this.url, { codeVerifier: undefined });
  }
}
