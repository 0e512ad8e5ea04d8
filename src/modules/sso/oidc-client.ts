import { isIP } from 'node:net';
import { BaseClient, custom, CustomHttpOptionsProvider, generators, Issuer } from 'openid-client';
import { InternalAddressError, OutboundPolicy } from '@/common/net/outbound-policy';
import type { OidcSettings } from './sso.config';

const TIMEOUT_MS = 10_000;

/**
 * Every call to the identity provider (discovery, keys, tokens, user info) dialled through the outbound policy:
 * the resolver checks each address, and an address written in a URL is checked before anything is opened.
 */
function guardedHttp(policy: OutboundPolicy): CustomHttpOptionsProvider {
  const lookup = policy.lookup();
  return (url, options) => {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && !policy.allowsAddress(host)) throw new InternalAddressError(host, host);
    return { ...options, lookup, timeout: TIMEOUT_MS };
  };
}

/** What a sign-in keeps between leaving for the provider and coming back (in a short-lived cookie). */
export interface PendingSignIn {
  state: string;
  nonce: string;
  verifier: string;
}

/** The person the provider vouched for. */
export interface ProvidedIdentity {
  email: string;
  emailVerified: boolean;
  name?: string;
}

/** The relying party of one OpenID Connect provider: authorization code with PKCE, state and nonce. */
export class OidcClient {
  private client: Promise<BaseClient> | undefined;

  constructor(
    private readonly settings: OidcSettings,
    private readonly policy: OutboundPolicy,
  ) {}

  /** Discovered once, on the first sign-in; a failure is tried again at the next one. */
  private discover(): Promise<BaseClient> {
    this.client ??= (async () => {
      const http = guardedHttp(this.policy);
      class GuardedIssuer extends Issuer {}
      (GuardedIssuer as unknown as Record<symbol, unknown>)[custom.http_options] = http;
      const issuer = await GuardedIssuer.discover(this.settings.issuer);
      issuer[custom.http_options] = http;
      const client = new issuer.Client({
        client_id: this.settings.clientId,
        client_secret: this.settings.clientSecret,
        response_types: ['code'],
      });
      client[custom.http_options] = http;
      return client;
    })().catch((error: unknown) => {
      this.client = undefined;
      throw error;
    });
    return this.client;
  }

  /** Where to send the browser, and what to keep until it comes back. */
  async start(redirectUri: string): Promise<{ url: string; pending: PendingSignIn }> {
    const client = await this.discover();
    const pending = {
      state: generators.state(),
      nonce: generators.nonce(),
      verifier: generators.codeVerifier(),
    };
    const url = client.authorizationUrl({
      redirect_uri: redirectUri,
      scope: 'openid email profile',
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: generators.codeChallenge(pending.verifier),
      code_challenge_method: 'S256',
    });
    return { url, pending };
  }

  /**
   * Exchanges the code (checking state, nonce, PKCE and the ID token's signature) and reads the email: from the ID
   * token, else from the user info endpoint.
   */
  async finish(
    redirectUri: string,
    query: Record<string, string>,
    pending: PendingSignIn,
  ): Promise<ProvidedIdentity> {
    const client = await this.discover();
    const params = client.callbackParams(`/?${new URLSearchParams(query).toString()}`);
    const tokens = await client.callback(redirectUri, params, {
      state: pending.state,
      nonce: pending.nonce,
      code_verifier: pending.verifier,
      response_type: 'code',
    });
    let claims: Record<string, unknown> = tokens.claims();
    if (typeof claims.email !== 'string' && tokens.access_token) {
      claims = { ...claims, ...(await client.userinfo(tokens.access_token)) };
    }
    return {
      email: typeof claims.email === 'string' ? claims.email : '',
      emailVerified: claims.email_verified === true || claims.email_verified === 'true',
      name: typeof claims.name === 'string' ? claims.name.trim().slice(0, 200) || undefined : undefined,
    };
  }
}
