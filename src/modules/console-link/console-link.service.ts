import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { unwatchFile, watchFile } from 'node:fs';
import { join } from 'node:path';
import { appConfig, AppConfig } from '@/config/app.config';
import { OutboundHttp } from '@/common/net/outbound-http';
import { wildcardMatch } from '@/common/text/wildcard';
import { parseConfigDocument } from '../location-config/config-validation';
import { ConfigLayer } from '../location-config/config.types';
import { ConfigSource, LocationConfigService } from '../location-config/location-config.service';
import { consoleConfigAnswer, CONSOLE_TOKEN_VARIABLES, PolicyStatement } from './console-answers';
import { ConsoleCallError, refreshTokens, refusal, workspaceName } from './console-client';
import { consoleLinkConfig, ConsoleLinkConfig } from './console-link.config';
import {
  ConsoleLink,
  LINK_FILE,
  readLink,
  readSavedConfig,
  SavedConfig,
  writeLink,
  writeSavedConfig,
} from './console-link.store';

/**
 * The `{env:NAME}` the console's providers take their key from: the device access token, held in memory. The
 * console's MCP servers name opencode's variable for it (`OPENCODE_CONSOLE_TOKEN`), which is answered the same way.
 */
export const CONSOLE_TOKEN = CONSOLE_TOKEN_VARIABLES[1];
/** How often the link file is looked at for a login or logout of another process. */
const LINK_FILE_CHECK_MS = 1000;
/** Refresh the access token when less than this is left of it. */
const REFRESH_BEFORE_MS = 5 * 60_000;

export type LinkState = 'unlinked' | 'linked' | 'signed_out';

export interface LinkStatus {
  state: LinkState;
  console: string | null;
  workspace: string | null;
  /** The workspace's name, as the console lists it; null until it said. */
  workspaceName: string | null;
  since: string | null;
  /** When the workspace config was last fetched; it is kept on disk, so an outage changes nothing. */
  configFetchedAt: string | null;
  /** The last failure to reach the console, while it lasts. */
  problem: string | null;
}

/**
 * The instance's link to a console (`outpost login`): while signed in, it fetches the workspace config every
 * `OUTPOST_CONSOLE_POLL_MS` with `If-None-Match`, keeps the last good copy on disk, and serves it to every
 * location as a config layer under the local files: the workspace's providers, whose key is the device access
 * token (refreshed before it expires, never written into a config file), and its `provider.use` policies, which
 * only take away. The console's gateway meters those calls to the person. A refused refresh token means the
 * console signed this instance out: its providers are dropped and `/api/info` says so.
 */
@Injectable()
export class ConsoleLinkService implements ConfigSource, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ConsoleLinkService.name);
  private link: ConsoleLink | null = null;
  private saved: SavedConfig | null = null;
  private problem: string | null = null;
  private timer?: NodeJS.Timeout;
  private polling?: Promise<void>;
  /** The access token the workspace's name was last asked with. */
  private namedWith?: string;

  constructor(
    @Inject(appConfig.KEY) private readonly app: AppConfig,
    @Inject(consoleLinkConfig.KEY) private readonly settings: ConsoleLinkConfig,
    private readonly configs: LocationConfigService,
    private readonly http: OutboundHttp,
  ) {
    configs.addSource(this);
  }

  async onApplicationBootstrap(): Promise<void> {
    this.link = readLink(this.app.dataDir);
    this.saved = this.link && !this.link.signedOut ? readSavedConfig(this.app.dataDir) : null;
    if (this.saved) this.configs.forget();
    await this.poll();
    this.timer = setInterval(() => void this.poll(), this.settings.pollMs);
    this.timer.unref();
    // `outpost login` and `outpost logout` (other processes) write console.json: a look every second picks
    // them up within seconds instead of at the next poll. fs.watchFile also sees the file appear.
    watchFile(this.linkFile, { interval: LINK_FILE_CHECK_MS, persistent: false }, this.onLinkFileChange);
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
    unwatchFile(this.linkFile, this.onLinkFileChange);
  }

  private readonly onLinkFileChange = () => void this.poll();

  private get linkFile(): string {
    return join(this.app.dataDir, LINK_FILE);
  }

  status(): LinkStatus {
    const link = this.link;
    return {
      state: !link ? 'unlinked' : link.signedOut ? 'signed_out' : 'linked',
      console: link?.consoleUrl ?? null,
      workspace: link?.orgId ?? null,
      workspaceName: link?.orgName ?? null,
      since: link ? new Date(link.linkedAt).toISOString() : null,
      configFetchedAt: this.saved ? new Date(this.saved.fetchedAt).toISOString() : null,
      problem: this.problem,
    };
  }

  /** One round: pick up a login or logout, refresh the token when due, fetch the config when it changed. */
  poll(): Promise<void> {
    this.polling ??= this.round().finally(() => (this.polling = undefined));
    return this.polling;
  }

  /**
   * Runs `work` (a sign-out from the web app, which rewrites console.json) between rounds, then a round that picks
   * it up: a round under way could otherwise write back the link `work` just removed.
   */
  async between<T>(work: () => Promise<T>): Promise<T> {
    while (this.polling) await this.polling.catch(() => undefined);
    let result!: T;
    this.polling = (async () => {
      result = await work();
      await this.round();
    })().finally(() => (this.polling = undefined));
    await this.polling;
    return result;
  }

  private async round(): Promise<void> {
    const before = JSON.stringify([this.link?.accessToken, this.link?.signedOut, this.saved?.etag]);
    const link = readLink(this.app.dataDir);
    if (!link || link.signedOut || link.linkedAt !== this.link?.linkedAt) this.saved = null;
    this.link = link;
    if (link && !link.signedOut) {
      try {
        await this.fresh(link);
        await this.fetchConfig();
        await this.nameWorkspace(link);
        this.problem = null;
      } catch (error) {
        this.problem = (error as Error).message;
        this.logger.warn(`console ${link.consoleUrl}: ${this.problem}`);
      }
      if (!this.saved) this.saved = readSavedConfig(this.app.dataDir);
    }
    const after = JSON.stringify([this.link?.accessToken, this.link?.signedOut, this.saved?.etag]);
    if (before !== after) this.configs.forget();
  }

  /** Refreshes the access token when it is about to expire; a refused refresh token signs the instance out. */
  private async fresh(link: ConsoleLink, force = false): Promise<void> {
    if (!force && link.expiresAt - Date.now() > REFRESH_BEFORE_MS) return;
    try {
      const tokens = await refreshTokens(this.http, link.consoleUrl, link.refreshToken);
      Object.assign(link, {
        accessToken: tokens.accessToken,
        refreshToken: tokens.refreshToken,
        expiresAt: Date.now() + tokens.expiresInSeconds * 1000,
      });
    } catch (error) {
      if (!(error instanceof ConsoleCallError) || error.code !== 'invalid_grant') throw error;
      link.signedOut = true;
      this.saved = null;
      this.logger.warn(`the console ${link.consoleUrl} signed this instance out; run outpost login`);
    }
    // `outpost logout` (another process) may have removed or replaced the link while the console answered.
    if (readLink(this.app.dataDir)?.linkedAt !== link.linkedAt) return;
    writeLink(this.app.dataDir, link);
  }

  /**
   * Asks the console for the workspace's name once per access token: at start, and after each refresh (a renamed
   * workspace shows within the hour). A link without one (an older sign-in, a console that did not say) gets it so.
   */
  private async nameWorkspace(link: ConsoleLink): Promise<void> {
    if (link.signedOut || !link.orgId || this.namedWith === link.accessToken) return;
    this.namedWith = link.accessToken;
    const name = await workspaceName(this.http, link.consoleUrl, link.accessToken, link.orgId);
    if (!name || name === link.orgName) return;
    link.orgName = name;
    if (readLink(this.app.dataDir)?.linkedAt === link.linkedAt) writeLink(this.app.dataDir, link);
  }

  private async fetchConfig(retried = false): Promise<void> {
    const link = this.link!;
    if (link.signedOut) return;
    const headers: Record<string, string> = { authorization: `Bearer ${link.accessToken}` };
    if (this.saved) headers['if-none-match'] = this.saved.etag;
    let res: Awaited<ReturnType<OutboundHttp['fetch']>>;
    try {
      res = await this.http.fetch(`${link.consoleUrl}/console/api/v2/config`, { headers });
    } catch (error) {
      throw new Error(`${refusal(error) ?? 'not reachable'}; using the last workspace config fetched`);
    }
    if (res.status === 304) return;
    if (res.status === 401 && !retried) {
      // Revoked or expired: a refresh tells which (invalid_grant signs the instance out).
      await this.fresh(link, true);
      return this.fetchConfig(true);
    }
    // A balancer in front of a console whose nodes are all down answers for them.
    if ([502, 503, 504].includes(res.status))
      throw new Error(`not reachable (answered ${res.status}); using the last workspace config fetched`);
    if (!res.ok)
      throw new Error(`the workspace config answered ${res.status}; using the last workspace config fetched`);
    const config = consoleConfigAnswer(link.consoleUrl, await res.json().catch(() => undefined));
    this.saved = { etag: res.headers.get('etag') ?? '', fetchedAt: Date.now(), config };
    writeSavedConfig(this.app.dataDir, this.saved);
  }

  layer(): ConfigLayer | undefined {
    if (!this.link || this.link.signedOut || !this.saved) return undefined;
    const providers: Record<string, unknown> = {};
    for (const [id, entry] of Object.entries(this.saved.config.providers ?? {})) {
      providers[id] = {
        ...(entry.name ? { name: entry.name } : {}),
        package: entry.package?.startsWith('aisdk:')
          ? entry.package
          : `aisdk:${entry.package ?? '@ai-sdk/openai-compatible'}`,
        settings: { baseURL: entry.settings.baseURL, apiKey: `{env:${CONSOLE_TOKEN}}` },
        ...(entry.headers ? { headers: entry.headers } : {}),
        models: entry.models ?? {},
      };
    }
    // Web search through the console's gateway, metered to the person like the providers' calls.
    const websearch = this.saved.config.websearch
      ? {
          provider: 'outpost',
          baseURL: `${this.link.consoleUrl}/inference`,
          apiKey: `{env:${CONSOLE_TOKEN}}`,
          ...(this.link.orgId ? { headers: { 'x-org-id': this.link.orgId } } : {}),
        }
      : undefined;
    // The workspace's MCP servers, the console's own among them (its tools as `outpost_…`), with the token.
    const mcp: Record<string, unknown> = {};
    for (const [name, server] of Object.entries(this.saved.config.mcp ?? {})) {
      mcp[name] = { type: 'remote', ...server };
    }
    const { config } = parseConfigDocument(
      {
        provider: providers,
        ...(websearch ? { websearch } : {}),
        ...(Object.keys(mcp).length ? { mcp } : {}),
      },
      this.app.dataDir,
    );
    return { file: this.link.consoleUrl, scope: 'console', config };
  }

  allows(provider: string, model?: string): boolean {
    const statements: PolicyStatement[] =
      this.link && !this.link.signedOut ? (this.saved?.config.policies ?? []) : [];
    const target = model === undefined ? provider : `${provider}/${model}`;
    let allowed = true;
    for (const statement of statements) {
      if (statement.action !== 'provider.use') continue;
      if (
        wildcardMatch(statement.resource, target) ||
        (model !== undefined && wildcardMatch(statement.resource, provider))
      ) {
        allowed = statement.effect === 'allow';
      }
    }
    return allowed;
  }

  secret(name: string): string | undefined {
    if (!CONSOLE_TOKEN_VARIABLES.includes(name) || !this.link || this.link.signedOut) return undefined;
    return this.link.accessToken;
  }
}
