import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '@/common/clock';
import { ulidId } from '@/common/ids';
import { Transactions } from '@/database/transaction';
import { randomBytes } from 'node:crypto';
import { Actor } from '../console-access/actor';
import type { Role } from '../console-access/console-principal';
import { SsoRefusedError, SSO_REFUSALS } from './identity.errors';
import {
  ConsoleConflictError,
  ConsoleForbiddenError,
  ConsoleUnauthorizedError,
} from '../console-access/console-access.errors';
import { InvitesService, normalizeEmail } from '../workspaces/invites.service';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { identityConfig, IdentityConfig } from './identity.config';
import { LoginThrottleService } from './login-throttle.service';
import { PasswordService } from './password.service';
import { SessionsService, SignedInPerson } from './sessions.service';
import { UserEntity } from './user.entity';
import { UsersRepository } from './users.repository';
import { RateLimiter } from '@/common/rate-limit/rate-limiter';

export interface NewPerson {
  email: string;
  password: string;
  name?: string;
  invite?: string;
  /** Joins this workspace with this role instead of getting a "Personal" one (an identity provider's sign-in). */
  join?: AutoMembership;
}

export interface AutoMembership {
  workspaceId: string;
  role: Role;
}

const NEEDS_INVITATION = 'Sign-up needs an invitation on this console';

@Injectable()
export class IdentityService {
  constructor(
    private readonly users: UsersRepository,
    private readonly transactions: Transactions,
    @Inject(identityConfig.KEY) private readonly config: IdentityConfig,
    private readonly passwords: PasswordService,
    private readonly sessions: SessionsService,
    private readonly throttle: LoginThrottleService,
    private readonly workspaces: WorkspacesService,
    private readonly invites: InvitesService,
    private readonly clock: Clock,
    private readonly limiter: RateLimiter,
  ) {}

  /** Sign-up through the API, as `OUTPOST_CONSOLE_SIGNUP` allows; returns the person and a sign-in cookie value. */
  async signup(input: NewPerson, sourceAddress: string): Promise<{ user: UserEntity; session: string }> {
    if (this.config.signup === 'closed') throw new ConsoleForbiddenError('Sign-up is closed on this console');
    if (this.config.signup === 'invite' && !input.invite) throw new ConsoleForbiddenError(NEEDS_INVITATION);
    // Per address and shared by every process: a flood of accounts, or of probes for taken e-mails, stops here.
    await this.limiter.consume(
      `signup:${sourceAddress}`,
      { max: this.config.signupsPerHour, windowMs: 3_600_000 },
      'Too many sign-ups from this address; try again later',
    );
    return this.createPerson(input, sourceAddress, true, this.config.signup === 'first' && !input.invite);
  }

  /**
   * A new person with a workspace: the invitation's, else a new "Personal" one they own. One transaction, so a
   * bad invitation leaves no account behind.
   */
  async createPerson(
    input: NewPerson,
    sourceAddress: string | null,
    startSession: boolean,
    onlyTheFirst = false,
  ): Promise<{ user: UserEntity; session: string }> {
    const email = normalizeEmail(input.email);
    const passwordHash = await this.passwords.hash(input.password);
    const now = this.clock.now();
    const user: UserEntity = {
      id: ulidId('usr', now),
      email,
      name: input.name?.trim() || email.split('@')[0],
      passwordHash,
      createdAt: new Date(now),
    };
    const actor: Actor = { type: 'user', id: user.id, sourceAddress };
    return this.transactions.run(async (tx) => {
      if (onlyTheFirst && (await this.users.anyone(tx))) throw new ConsoleForbiddenError(NEEDS_INVITATION);
      const inserted = await this.users.addUnlessEmailTaken(tx, user);
      if (!inserted) throw new ConsoleConflictError('An account with this email already exists', 'user');
      if (input.invite) await this.invites.accept(input.invite, user, actor, tx);
      else if (input.join) {
        const { workspaceId, role } = input.join;
        await this.workspaces.addMember(actor, workspaceId, user.id, role, { via: 'sso' }, tx);
      } else await this.workspaces.create(actor, user.id, 'Personal', tx);
      const session = startSession ? await this.sessions.start(user.id, tx) : '';
      return { user, session };
    });
  }

  /**
   * Whether an account has this email. Only asked for the email of a valid invitation, by whoever holds its link,
   * to send them to sign-up or sign-in.
   */
  async hasAccount(emailInput: string): Promise<boolean> {
    return this.users.existsWithEmail(normalizeEmail(emailInput));
  }

  /** The same 401 for a wrong email and a wrong password; 429 past the limits per address and per account. */
  async login(emailInput: string, password: string, sourceAddress: string): Promise<string> {
    const email = normalizeEmail(emailInput);
    const delay = await this.throttle.check(sourceAddress, email);
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    const user = await this.users.findByEmail(email);
    const ok = await this.passwords.verify(user?.passwordHash, password);
    if (!user || !ok) {
      await this.throttle.recordFailure(sourceAddress, email);
      throw new ConsoleUnauthorizedError('Wrong email or password');
    }
    await this.throttle.reset(sourceAddress, email);
    return this.sessions.start(user.id);
  }

  /**
   * Signs in the person an identity provider vouched for (a verified email): the account with that email, or a
   * new one when sign-up is open or the provider's sign-ins join a workspace (`join`), which they then belong to.
   * Returns a sign-in cookie value.
   */
  async ssoSignIn(
    person: { email: string; name?: string },
    join: AutoMembership | undefined,
    sourceAddress: string,
  ): Promise<string> {
    const email = normalizeEmail(person.email);
    const existing = await this.users.findByEmail(email);
    if (existing) {
      const actor: Actor = { type: 'user', id: existing.id, sourceAddress };
      if (join)
        await this.workspaces.addMember(actor, join.workspaceId, existing.id, join.role, { via: 'sso' });
      return this.sessions.start(existing.id);
    }
    if (!join && (await this.signupMode()) !== 'open')
      throw new SsoRefusedError(SSO_REFUSALS.signup, 'signup');
    // The account signs in through the provider; a password it never learns until it resets one.
    const password = randomBytes(32).toString('base64url');
    const onlyTheFirst = !join && this.config.signup === 'first';
    const input = { email, password, name: person.name, join };
    const { session } = await this.createPerson(input, sourceAddress, true, onlyTheFirst);
    return session;
  }

  /** The person signed in with this cookie value, or undefined (unknown or expired). */
  signedIn(cookieValue: string): Promise<SignedInPerson | undefined> {
    return this.sessions.person(cookieValue);
  }

  logout(cookieValue: string): Promise<void> {
    return this.sessions.end(cookieValue);
  }

  /**
   * `OUTPOST_CONSOLE_SIGNUP` as it applies now, for the sign-up page: `first` is `open` until someone has an
   * account, then `invite`.
   */
  async signupMode(): Promise<'open' | 'invite' | 'closed'> {
    const mode = this.config.signup;
    if (mode !== 'first') return mode;
    return (await this.users.anyone()) ? 'invite' : 'open';
  }

  get sessionLifetimeMs(): number {
    return this.sessions.lifetimeMs;
  }
}
