import { Body, Controller, Get, NotFoundException, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { isEmail } from 'class-validator';
import { Public } from '@/common/auth';
import { TaggedError } from '@/common/errors';
import { DeviceFlowService } from '../device/device-flow.service';
import { DeviceTokensService } from '../device/device-tokens.service';
import { IdentityService } from '../identity/identity.service';
import { MIN_PASSWORD_LENGTH } from '../identity/password.service';
import { clearSessionCookie, readSessionCookie, setSessionCookie } from '../console-access/session-cookie';
import { SignedInPerson } from '../identity/sessions.service';
import { Actor } from '../console-access/actor';
import { InvitesService } from '../workspaces/invites.service';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { APP_PAGES, appBody, consoleNav } from './app-shell';
import { CsrfService } from './csrf.service';
import { Html, html, page } from '@/common/http/html';
import { approvalForm, codeForm, homeBody, inviteBody, invitedWords, loginForm, signupForm } from './views';
import { SSO_REFUSALS, SsoRefusal } from '../identity/identity.errors';
import { SsoService } from '../sso/sso.service';
import { HttpReply, HttpRequest } from '@/common/http/http';

type Form = Record<string, unknown>;

/** Where to go after signing in: only a path of the console itself (no open redirect). */
function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/console(\/|\?|$)/.test(next) && !/[\\\s]|\/\//.test(next)
    ? next
    : '/console';
}

function text(form: Form, name: string, max = 1024): string {
  const value = form[name];
  return typeof value === 'string' ? value.slice(0, max) : '';
}

const INVITE_PATH = /^\/console\/invites\/([A-Za-z0-9_-]{20,200})$/;

/**
 * The console's web pages: server-rendered HTML, usable without JavaScript. Public at the guard; each page
 * checks the sign-in cookie itself and sends a signed-out visitor to the sign-in page, then back.
 */
@ApiExcludeController()
@Public()
@Controller('console')
export class PagesController {
  constructor(
    private readonly identity: IdentityService,
    private readonly workspaces: WorkspacesService,
    private readonly invites: InvitesService,
    private readonly flow: DeviceFlowService,
    private readonly tokens: DeviceTokensService,
    private readonly csrf: CsrfService,
    private readonly sso: SsoService,
  ) {}

  private async person(request: HttpRequest): Promise<SignedInPerson | undefined> {
    const cookie = readSessionCookie(request);
    return cookie ? this.identity.signedIn(cookie) : undefined;
  }

  private send(response: HttpReply, status: number, body: string): void {
    response.status(status).header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(body);
  }

  private toLogin(request: HttpRequest, response: HttpReply): void {
    response.redirect(`/console/login?next=${encodeURIComponent(request.originalUrl)}`, 303);
  }

  /** A page for a signed-in person, with the header's sign-out form. */
  private render(
    request: HttpRequest,
    response: HttpReply,
    person: SignedInPerson,
    status: number,
    options: { title: string; error?: string; notice?: string; wide?: boolean },
    body: (csrf: string) => Html,
  ): void {
    const csrf = this.csrf.token(request, response);
    this.send(response, status, page({ ...options, signedInAs: { email: person.email, csrf } }, body(csrf)));
  }

  /** 403 page for a form without this browser's CSRF token. */
  private checkCsrf(request: HttpRequest, response: HttpReply, form: Form): boolean {
    return this.csrf.checkForm(request, response, form);
  }

  private actor(person: SignedInPerson, request: HttpRequest): Actor {
    return { type: 'user', id: person.id, sourceAddress: request.ip ?? null };
  }

  @Get()
  async home(@Req() request: HttpRequest, @Res() response: HttpReply, @Query('notice') notice?: string) {
    const person = await this.person(request);
    if (!person) return this.toLogin(request, response);
    const [workspaces, sessions] = await Promise.all([
      this.workspaces.listForUser(person.id),
      this.tokens.listSessions(person.id),
    ]);
    const names = new Map(workspaces.map((workspace) => [workspace.id, workspace.name]));
    const devices = sessions.map((session) => ({
      id: session.id,
      clientId: session.clientId,
      workspace: session.workspaceId
        ? (names.get(session.workspaceId) ?? session.workspaceId)
        : 'any (not bound)',
      createdAt: session.createdAt,
      lastUsedAt: session.lastUsedAt,
    }));
    const notices: Record<string, string> = {
      joined: 'You joined the workspace.',
      signed_out: 'The device was signed out.',
      password_set: 'Your new password is set. Every other sign-in of your account has ended.',
    };
    this.render(
      request,
      response,
      person,
      200,
      { title: 'Your console', notice: notices[notice ?? ''], wide: true },
      (csrf) => html`${consoleNav('overview')}${homeBody(csrf, workspaces, devices)}`,
    );
  }

  /** The console app's pages: the shell for a signed-in person, the sign-in page for anyone else. */
  @Get(APP_PAGES.map((item) => item.path))
  async appPage(@Req() request: HttpRequest, @Res() response: HttpReply) {
    const person = await this.person(request);
    if (!person) return this.toLogin(request, response);
    const path = request.url
      .split('?')[0]
      .replace(/^\/console\//, '')
      .replace(/\/$/, '');
    const current = APP_PAGES.find((item) => item.path === path) ?? APP_PAGES[0];
    this.render(request, response, person, 200, { title: current.title, wide: true }, () =>
      appBody(current.path),
    );
  }

  @Get('login')
  async loginPage(
    @Req() request: HttpRequest,
    @Res() response: HttpReply,
    @Query('next') next?: unknown,
    @Query('sso_error') ssoError?: unknown,
  ) {
    const target = safeNext(next);
    if (await this.person(request)) return response.redirect(target, 303);
    const csrf = this.csrf.token(request, response);
    // Only a known reason is shown, as our own sentence: no text from a link reaches the page.
    const error = typeof ssoError === 'string' ? SSO_REFUSALS[ssoError as SsoRefusal] : undefined;
    const status = error ? 403 : 200;
    const body = loginForm(csrf, target, '', this.sso.providerName);
    this.send(response, status, page({ title: 'Sign in', error }, body));
  }

  @Post('login')
  async login(@Req() request: HttpRequest, @Res() response: HttpReply, @Body() form: Form = {}) {
    if (!this.checkCsrf(request, response, form)) return;
    const next = safeNext(form.next);
    const email = text(form, 'email', 320);
    try {
      const session = await this.identity.login(email, text(form, 'password'), request.ip ?? '');
      setSessionCookie(request, response, session, this.identity.sessionLifetimeMs);
      response.redirect(next, 303);
    } catch (error) {
      if (!(error instanceof TaggedError)) throw error;
      const csrf = this.csrf.token(request, response);
      this.send(
        response,
        error.status,
        page({ title: 'Sign in', error: error.message }, loginForm(csrf, next, email, this.sso.providerName)),
      );
    }
  }

  @Get('signup')
  async signupPage(
    @Req() request: HttpRequest,
    @Res() response: HttpReply,
    @Query('next') next?: unknown,
    @Query('invite') invite?: unknown,
  ) {
    const target = safeNext(next);
    if (await this.person(request)) return response.redirect(target, 303);
    const csrf = this.csrf.token(request, response);
    const token = typeof invite === 'string' ? invite : (INVITE_PATH.exec(target)?.[1] ?? '');
    const mode = await this.identity.signupMode();
    if (mode === 'closed' || (mode === 'invite' && !token)) {
      const error =
        mode === 'closed'
          ? 'Sign-up is closed on this console. Ask its administrator for an account.'
          : 'Sign-up on this console needs an invitation. Open the invitation link you were sent.';
      const signIn = html`<p>
        Have an account? <a href="/console/login?next=${encodeURIComponent(target)}">Sign in</a>.
      </p>`;
      return this.send(response, 200, page({ title: 'Create an account', error }, signIn));
    }
    // From an invitation: its email, filled in (the sign-up accepts the invitation only for that email).
    const invited = token ? await this.invites.describe(token) : undefined;
    const notice = invited ? `${invitedWords(invited)}: create an account to accept.` : undefined;
    this.send(
      response,
      200,
      page({ title: 'Create an account', notice }, signupForm(csrf, target, token, invited?.email ?? '')),
    );
  }

  @Post('signup')
  async signup(@Req() request: HttpRequest, @Res() response: HttpReply, @Body() form: Form = {}) {
    if (!this.checkCsrf(request, response, form)) return;
    const next = safeNext(form.next);
    const email = text(form, 'email', 320).trim();
    const password = text(form, 'password');
    const name = text(form, 'name', 200).trim();
    const invite = /^[A-Za-z0-9_-]{20,200}$/.test(text(form, 'invite')) ? text(form, 'invite') : undefined;
    const retry = (status: number, message: string) => {
      const csrf = this.csrf.token(request, response);
      const body = signupForm(csrf, next, invite ?? '', email);
      this.send(response, status, page({ title: 'Create an account', error: message }, body));
    };
    if (!isEmail(email)) return retry(400, 'Enter a valid email address.');
    if (password.length < MIN_PASSWORD_LENGTH) {
      return retry(400, `The password needs at least ${MIN_PASSWORD_LENGTH} characters.`);
    }
    try {
      const { session } = await this.identity.signup(
        { email, password, name: name || undefined, invite },
        request.ip ?? '',
      );
      setSessionCookie(request, response, session, this.identity.sessionLifetimeMs);
      // The invitation was accepted with the sign-up: its page would only say it is used.
      response.redirect(invite && INVITE_PATH.test(next) ? '/console?notice=joined' : next, 303);
    } catch (error) {
      if (!(error instanceof TaggedError)) throw error;
      retry(error.status, error.message);
    }
  }

  @Post('logout')
  async logout(@Req() request: HttpRequest, @Res() response: HttpReply, @Body() form: Form = {}) {
    if (!this.checkCsrf(request, response, form)) return;
    const cookie = readSessionCookie(request);
    if (cookie) await this.identity.logout(cookie);
    clearSessionCookie(request, response);
    response.redirect('/console/login', 303);
  }

  @Get('device')
  async devicePage(
    @Req() request: HttpRequest,
    @Res() response: HttpReply,
    @Query('user_code') userCode?: unknown,
  ) {
    const person = await this.person(request);
    if (!person) return this.toLogin(request, response);
    if (userCode === undefined || userCode === '') {
      return this.render(request, response, person, 200, { title: 'Sign in a device' }, (csrf) =>
        codeForm(csrf),
      );
    }
    await this.showApproval(request, response, person, userCode);
  }

  private async showApproval(
    request: HttpRequest,
    response: HttpReply,
    person: SignedInPerson,
    userCode: unknown,
    error?: { status: number; message: string },
  ): Promise<void> {
    try {
      const pending = await this.flow.findPending(person.id, userCode);
      const workspaces = pending.supportsOrgScope ? await this.workspaces.listForUser(person.id) : [];
      this.render(
        request,
        response,
        person,
        error?.status ?? 200,
        { title: 'Approve this device?', error: error?.message },
        (csrf) => approvalForm(csrf, pending, person.email, workspaces),
      );
    } catch (failure) {
      if (!(failure instanceof TaggedError)) throw failure;
      const typed = typeof userCode === 'string' ? userCode.slice(0, 20) : '';
      this.render(
        request,
        response,
        person,
        failure.status,
        { title: 'Sign in a device', error: failure.message },
        (csrf) => codeForm(csrf, typed),
      );
    }
  }

  @Post('device')
  async decide(@Req() request: HttpRequest, @Res() response: HttpReply, @Body() form: Form = {}) {
    const person = await this.person(request);
    if (!person) return this.toLogin(request, response);
    if (!this.checkCsrf(request, response, form)) return;
    const action = text(form, 'action', 20);
    if (action !== 'approve' && action !== 'deny') {
      return this.showApproval(request, response, person, form.user_code);
    }
    try {
      const decided = await this.flow.decide(this.actor(person, request), person.id, form.user_code, {
        approve: action === 'approve',
        workspaceId: text(form, 'org', 40),
      });
      const message =
        action === 'approve'
          ? `${decided.clientId} is signed in. You can close this page and return to your device.`
          : `You denied the sign-in of ${decided.clientId}.`;
      this.render(
        request,
        response,
        person,
        200,
        { title: action === 'approve' ? 'Device approved' : 'Sign-in denied', notice: message },
        () => html`<p><a href="/console">Back to your console</a></p>`,
      );
    } catch (failure) {
      if (!(failure instanceof TaggedError)) throw failure;
      await this.showApproval(request, response, person, form.user_code, {
        status: failure.status,
        message: failure.message,
      });
    }
  }

  @Post('sessions/:id/revoke')
  async revokeDevice(
    @Req() request: HttpRequest,
    @Res() response: HttpReply,
    @Param('id') id: string,
    @Body() form: Form = {},
  ) {
    const person = await this.person(request);
    if (!person) return this.toLogin(request, response);
    if (!this.checkCsrf(request, response, form)) return;
    try {
      await this.tokens.revokeSession(this.actor(person, request), person.id, id);
    } catch (failure) {
      if (!(failure instanceof TaggedError)) throw failure;
      return this.render(
        request,
        response,
        person,
        failure.status,
        { title: 'Devices', error: failure.message },
        () => html`<p><a href="/console">Back to your console</a></p>`,
      );
    }
    response.redirect('/console?notice=signed_out', 303);
  }

  @Get('invites/:token')
  async invitePage(@Req() request: HttpRequest, @Res() response: HttpReply, @Param('token') token: string) {
    const person = await this.person(request);
    // Someone without an account who opens their invitation lands on creating one (the email filled in);
    // with an account, on signing in. Either way they come back here.
    if (!person) {
      const invite = await this.invites.describe(token);
      const next = encodeURIComponent(request.originalUrl);
      if (invite && !(await this.identity.hasAccount(invite.email)))
        return response.redirect(`/console/signup?next=${next}`, 303);
      return response.redirect(`/console/login?next=${next}`, 303);
    }
    const invite = await this.invites.describe(token);
    if (!invite) {
      return this.render(
        request,
        response,
        person,
        404,
        { title: 'Invitation', error: 'This invitation does not exist, expired or was already used.' },
        () => html`<p><a href="/console">Back to your console</a></p>`,
      );
    }
    this.render(request, response, person, 200, { title: `Join ${invite.workspace}` }, (csrf) =>
      inviteBody(csrf, token, invite),
    );
  }

  @Post('invites/:token')
  async acceptInvite(
    @Req() request: HttpRequest,
    @Res() response: HttpReply,
    @Param('token') token: string,
    @Body() form: Form = {},
  ) {
    const person = await this.person(request);
    if (!person) return this.toLogin(request, response);
    if (!this.checkCsrf(request, response, form)) return;
    try {
      await this.invites.accept(token, person, this.actor(person, request));
      response.redirect('/console?notice=joined', 303);
    } catch (failure) {
      if (!(failure instanceof TaggedError)) throw failure;
      this.render(
        request,
        response,
        person,
        failure.status,
        { title: 'Invitation', error: failure.message },
        () => html`<p><a href="/console">Back to your console</a></p>`,
      );
    }
  }

  /**
   * Any other page under /console is a page saying so, never a JSON 404. The API prefixes keep their JSON
   * answer (credentials first, as for every unknown route there).
   */
  @Get('*')
  notFound(@Req() request: HttpRequest, @Res() response: HttpReply) {
    if (/^\/console\/(api|auth)(\/|$)/.test(request.url)) throw new NotFoundException();
    this.send(
      response,
      404,
      page(
        { title: 'Page not found', error: 'There is no such page in the console.' },
        html`<p><a href="/console">Go to your console</a></p>`,
      ),
    );
  }
}
