import { Inject, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { parseAllowList, OutboundPolicy } from '@/common/net/outbound-policy';
import { outboundConfig, OutboundConfig } from '@/common/net/outbound.config';
import { TaggedError } from '@/common/errors';
import { IdentityService } from '../identity/identity.service';
import { SsoRefusedError, SSO_REFUSALS } from '../identity/identity.errors';
import { emailDomainAllowed } from './email-domain';
import { OidcClient, PendingSignIn } from './oidc-client';
import { ssoConfig, SsoConfig } from './sso.config';

export const CALLBACK_PATH = '/console/auth/oidc/callback';

/** Console sign-in with the operator's OpenID Connect provider. */
@Injectable()
export class SsoService {
  private readonly logger = new Logger(SsoService.name);
  private readonly client: OidcClient | undefined;

  constructor(
    @Inject(ssoConfig.KEY) private readonly config: SsoConfig,
    @Inject(outboundConfig.KEY) outbound: OutboundConfig,
    private readonly identity: IdentityService,
  ) {
    const oidc = config.oidc;
    if (!oidc) return;
    // The operator named the issuer, so its host is reachable even inside the network; any other internal host
    // its discovery document names needs OUTPOST_CONNECTIONS_ALLOW, as every other outbound call does.
    const issuerHost = new URL(oidc.issuer).hostname;
    const allow = parseAllowList([outbound.allow.text, issuerHost].filter(Boolean).join(','), (problem) => {
      throw new Error(`OUTPOST_OIDC_ISSUER ${problem}`);
    });
    this.client = new OidcClient(oidc, new OutboundPolicy(allow));
  }

  /** "Sign in with <name>" when a provider is configured. */
  get providerName(): string | undefined {
    return this.config.oidc?.name;
  }

  private configured(): { client: OidcClient; oidc: NonNullable<SsoConfig['oidc']> } {
    if (!this.client || !this.config.oidc) throw new NotFoundException();
    return { client: this.client, oidc: this.config.oidc };
  }

  /** The provider's authorization URL; `SsoRefusedError` when the provider cannot be reached (logged). */
  start(origin: string): Promise<{ url: string; pending: PendingSignIn }> {
    return this.configured()
      .client.start(`${origin}${CALLBACK_PATH}`)
      .catch((error: Error) => {
        this.logger.warn(`The identity provider could not be reached: ${error.message}`);
        throw new SsoRefusedError(SSO_REFUSALS.failed, 'failed');
      });
  }

  /**
   * The provider sent the browser back: checks the answer, the email's domain and that it is verified, and signs
   * the person in (see `IdentityService.ssoSignIn`). Returns a sign-in cookie value; refusals are `SsoRefusedError`.
   */
  async finish(
    origin: string,
    query: Record<string, string>,
    pending: PendingSignIn | undefined,
    sourceAddress: string,
  ): Promise<string> {
    const { client, oidc } = this.configured();
    if (!pending || query.error) {
      if (query.error) this.logger.warn(`The identity provider answered ${query.error.slice(0, 100)}`);
      throw new SsoRefusedError(SSO_REFUSALS.failed, 'failed');
    }
    const person = await client.finish(`${origin}${CALLBACK_PATH}`, query, pending).catch((error: Error) => {
      this.logger.warn(`Sign-in with the identity provider failed: ${error.message}`);
      throw new SsoRefusedError(SSO_REFUSALS.failed, 'failed');
    });
    if (!person.email || !person.emailVerified)
      throw new SsoRefusedError(SSO_REFUSALS.unverified, 'unverified');
    if (!emailDomainAllowed(person.email, oidc.allowedDomains)) {
      throw new SsoRefusedError(SSO_REFUSALS.domain, 'domain');
    }
    try {
      return await this.identity.ssoSignIn(person, oidc.join, sourceAddress);
    } catch (error) {
      if (error instanceof SsoRefusedError || !(error instanceof TaggedError)) throw error;
      // The auto-membership's workspace is gone, or the first account was just taken: the page says it failed.
      this.logger.warn(`Sign-in with the identity provider refused: ${error.message}`);
      throw new SsoRefusedError(SSO_REFUSALS.failed, 'failed');
    }
  }
}
