import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Clock } from '@/common/clock';
import { sha256 } from '@/common/hash';
import { ulidId } from '@/common/ids';
import { RateLimiter } from '@/common/rate-limit/rate-limiter';
import { Transactions } from '@/database/transaction';
import { AuditService } from '../audit/audit.service';
import { Actor } from '../console-access/actor';
import { ConsoleForbiddenError, ConsoleNotFoundError } from '../console-access/console-access.errors';
import { MailService } from '../mail/mail.service';
import { normalizeEmail } from '../workspaces/invites.service';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { identityConfig, IdentityConfig } from './identity.config';
import { ResetLinkGoneError } from './identity.errors';
import { RESET_LIFETIME_MS, RESET_LINK_REFUSALS, resetLinkState } from './password-reset';
import { PasswordResetsRepository } from './password-resets.repository';
import { PasswordService } from './password.service';
import { SessionsService } from './sessions.service';
import { UsersRepository } from './users.repository';

const HOUR_MS = 3_600_000;
/** Emails one account gets per hour whoever asks: beyond, asking again does nothing (and answers the same). */
const EMAILS_PER_ACCOUNT_PER_HOUR = 3;

export interface ResetLink {
  url: string;
  expiresAt: Date;
}

/** Forgotten passwords: single-use, short-lived links, sent by email or handed over by an owner or the CLI. */
@Injectable()
export class PasswordResetService {
  constructor(
    private readonly resets: PasswordResetsRepository,
    private readonly users: UsersRepository,
    private readonly passwords: PasswordService,
    private readonly sessions: SessionsService,
    private readonly workspaces: WorkspacesService,
    private readonly transactions: Transactions,
    private readonly mail: MailService,
    private readonly limiter: RateLimiter,
    private readonly clock: Clock,
    private readonly audit: AuditService,
    @Inject(identityConfig.KEY) private readonly config: IdentityConfig,
  ) {}

  /** Whether links go by email (`OUTPOST_SMTP_URL`); otherwise an owner or the CLI hands one over. */
  get byEmail(): boolean {
    return this.mail.enabled;
  }

  /** A new link for the person (earlier unused ones stop working). The token is only in the URL. */
  async issue(userId: string, linkBase: string): Promise<ResetLink> {
    const now = this.clock.now();
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now + RESET_LIFETIME_MS);
    await this.resets.replace({
      id: ulidId('pwr', now),
      userId,
      tokenHash: sha256(token),
      createdAt: new Date(now),
      expiresAt,
      usedAt: null,
    });
    return { url: `${linkBase}/console/reset-password/${token}`, expiresAt };
  }

  /**
   * "Forgot password?": emails a link when an account has this email. Answers the same whether it has or not,
   * and sends after answering, so neither the answer nor its time tells who has an account. 429 past the limit
   * per address (which says nothing about accounts).
   */
  async request(emailInput: string, sourceAddress: string, linkBase: string): Promise<void> {
    await this.limiter.consume(
      `password-reset:${sourceAddress}`,
      { max: this.config.passwordResetsPerHour, windowMs: HOUR_MS },
      'Too many password reset requests from this address; try again later',
    );
    void this.sendLink(normalizeEmail(emailInput), linkBase).catch(() => undefined);
  }

  private async sendLink(email: string, linkBase: string): Promise<void> {
    if (!this.mail.enabled) return;
    const user = await this.users.findByEmail(email);
    if (!user) return;
    const sent = await this.limiter.hit(`password-reset-account:${email}`, HOUR_MS);
    if (sent > EMAILS_PER_ACCOUNT_PER_HOUR) return;
    const link = await this.issue(user.id, linkBase);
    await this.mail.send({
      to: user.email,
      subject: 'Reset your Outpost console password',
      text: [
        `Someone (hopefully you) asked to reset the password of ${user.email} on the Outpost console.`,
        '',
        `Set a new password here (the link works once, for ${RESET_LIFETIME_MS / 60_000} minutes):`,
        link.url,
        '',
        'If you did not ask, ignore this email: your password stays as it is.',
      ].join('\n'),
    });
  }

  /**
   * An owner's reset link for a person of their workspace, to hand over. Only when every workspace the person
   * belongs to is one the owner owns: an owner of one shared workspace cannot take over an account that reaches
   * further.
   */
  async issueForOwner(
    actor: Actor,
    ownerId: string,
    workspaceId: string,
    userId: string,
    linkBase: string,
  ): Promise<ResetLink> {
    const theirs = await this.workspaces.listForUser(userId);
    if (!theirs.some((workspace) => workspace.id === workspaceId)) {
      throw new ConsoleNotFoundError(`Member not found: ${userId}`);
    }
    const owned = new Set(
      (await this.workspaces.listForUser(ownerId)).filter((w) => w.role === 'owner').map((w) => w.id),
    );
    const elsewhere = theirs.find((workspace) => !owned.has(workspace.id));
    if (elsewhere) {
      throw new ConsoleForbiddenError(
        `This person also belongs to ${elsewhere.name}, which you do not own: they can reset their password with "Forgot password?", or the server's operator with \`outpost console reset-password\``,
      );
    }
    const link = await this.issue(userId, linkBase);
    await this.transactions.run((tx) =>
      this.audit.record(tx, actor, {
        workspaceId,
        action: 'member.password_reset_link',
        target: { type: 'user', id: userId },
        details: { expires_at: link.expiresAt.toISOString() },
      }),
    );
    return link;
  }

  /** The CLI's link for any account (the operator's own tool). */
  async issueForEmail(emailInput: string, linkBase: string): Promise<ResetLink & { email: string }> {
    const user = await this.users.findByEmail(normalizeEmail(emailInput));
    if (!user) throw new ConsoleNotFoundError('No console account has this email');
    return { ...(await this.issue(user.id, linkBase)), email: user.email };
  }

  /** The email a usable link is for (its page shows it); a gone link throws with the sentence saying why. */
  async describe(token: string): Promise<string> {
    const reset = await this.resets.find(sha256(token));
    const state = resetLinkState(reset, new Date(this.clock.now()));
    if (state !== 'usable' || !reset) return this.refuse(state === 'usable' ? 'unknown' : state);
    const user = await this.users.findById(reset.userId);
    return user?.email ?? this.refuse('unknown');
  }

  /**
   * Sets the new password and ends every sign-in of the account (someone else may hold one), then starts one
   * for whoever reset it. The link is consumed by one atomic UPDATE: a second use is refused.
   */
  async complete(token: string, password: string): Promise<{ userId: string; session: string }> {
    const passwordHash = await this.passwords.hash(password);
    const now = new Date(this.clock.now());
    const tokenHash = sha256(token);
    const done = await this.transactions.run(async (tx) => {
      const userId = await this.resets.consume(tx, tokenHash, now);
      if (!userId) return undefined;
      await this.users.setPasswordHash(tx, userId, passwordHash);
      await this.sessions.endAll(userId, tx);
      return { userId, session: await this.sessions.start(userId, tx) };
    });
    if (done) return done;
    const state = resetLinkState(await this.resets.find(tokenHash), now);
    return this.refuse(state === 'usable' ? 'unknown' : state);
  }

  private refuse(state: keyof typeof RESET_LINK_REFUSALS): never {
    throw new ResetLinkGoneError(RESET_LINK_REFUSALS[state]);
  }
}
