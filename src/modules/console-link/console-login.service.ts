import { Inject, Injectable, Logger } from '@nestjs/common';
import { appConfig, AppConfig } from '@/config/app.config';
import { InvalidRequestError } from '@/common/errors';
import { OutboundHttp } from '@/common/net/outbound-http';
import { ConsoleAnswerError } from './console-answers';
import { ConsoleCallError } from './console-client';
import { ConsoleLinkService, LinkStatus } from './console-link.service';
import { consoleOrigin, DeviceLoginError, signOutOfConsole, startDeviceLogin } from './device-login';

/** A device sign-in waiting for its approval in the console. */
export interface PendingLogin {
  console: string;
  userCode: string;
  /** The console's approval page with the code filled in. */
  url: string;
  /** ISO-8601 */
  expiresAt: string;
}

export interface ConsoleLinkView {
  link: LinkStatus;
  /** The sign-in started from here and not approved yet. */
  pending: PendingLogin | null;
  /** Why the last sign-in started from here did not complete. */
  error: string | null;
}

/**
 * The web app's "Sign in to a console": the device flow `outpost login` runs, started by the server itself, which
 * polls in the background and writes the tokens where its console link picks them up. One sign-in at a time: a new
 * one replaces one still waiting.
 */
@Injectable()
export class ConsoleLoginService {
  private readonly logger = new Logger(ConsoleLoginService.name);
  private pending: PendingLogin | null = null;
  private error: string | null = null;
  private attempt = 0;

  constructor(
    @Inject(appConfig.KEY) private readonly app: AppConfig,
    private readonly link: ConsoleLinkService,
    private readonly http: OutboundHttp,
  ) {}

  view(): ConsoleLinkView {
    if (this.pending && Date.parse(this.pending.expiresAt) <= Date.now()) this.pending = null;
    return { link: this.link.status(), pending: this.pending, error: this.error };
  }

  async start(consoleUrl: string): Promise<ConsoleLinkView> {
    const attempt = ++this.attempt;
    const origin = consoleOrigin(consoleUrl);
    let login;
    try {
      login = await startDeviceLogin(this.http, origin, this.app.dataDir, () => attempt !== this.attempt);
    } catch (error) {
      if (error instanceof ConsoleAnswerError) {
        // What was typed answers, but not as a console does: the field is wrong, not the server.
        throw new InvalidRequestError(`${error.message}; is it an Outpost console?`, 'console');
      }
      if (error instanceof ConsoleCallError || error instanceof DeviceLoginError) {
        // What was typed names no console that answers: the field is wrong, not the server.
        throw new InvalidRequestError(
          `No console started a sign-in at ${origin}: ${error.message}`,
          'console',
        );
      }
      throw error;
    }
    // The outcome's handlers first: nothing below may leave the poll's promise without them.
    login.done
      .then(
        async () => {
          if (attempt !== this.attempt) return;
          this.pending = null;
          await this.link.poll();
        },
        (error: Error) => {
          if (attempt !== this.attempt) return;
          this.pending = null;
          this.error = error.message;
          this.logger.warn(`console sign-in at ${origin} ended: ${error.message}`);
        },
      )
      .catch((error: Error) => this.logger.error(`console sign-in at ${origin}: ${error.message}`));
    this.pending = {
      console: origin,
      userCode: login.userCode,
      url: login.link,
      expiresAt: new Date(login.expiresAt).toISOString(),
    };
    this.error = null;
    return this.view();
  }

  /** Signs out (the console revokes this device sign-in when it answers); also drops a sign-in still waiting. */
  async signOut(): Promise<ConsoleLinkView> {
    this.attempt++;
    this.pending = null;
    this.error = null;
    await this.link.between(() => signOutOfConsole(this.http, this.app.dataDir));
    return this.view();
  }
}
