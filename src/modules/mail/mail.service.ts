import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { createTransport, Transporter } from 'nodemailer';
import { mailConfig, MailConfig } from './mail.config';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** Sends email through the operator's SMTP server (`OUTPOST_SMTP_URL`), when there is one. */
@Injectable()
export class MailService implements OnApplicationShutdown {
  private readonly logger = new Logger(MailService.name);
  private readonly transport: Transporter | undefined;

  constructor(@Inject(mailConfig.KEY) private readonly config: MailConfig) {
    this.transport = config.smtpUrl ? createTransport(config.smtpUrl) : undefined;
  }

  /** Whether email is configured: otherwise links are shown to hand over by hand. */
  get enabled(): boolean {
    return this.transport !== undefined;
  }

  /**
   * Sends one email; false when email is not configured or the server refused it. The failure is logged with the
   * recipient's domain only: never the text, which carries a single-use link.
   */
  async send(mail: Mail): Promise<boolean> {
    if (!this.transport) return false;
    try {
      await this.transport.sendMail({ from: this.config.from, ...mail });
      return true;
    } catch (error) {
      const domain = mail.to.split('@')[1] ?? '?';
      this.logger.warn(`Email to a person at ${domain} was not sent: ${(error as Error).message}`);
      return false;
    }
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
