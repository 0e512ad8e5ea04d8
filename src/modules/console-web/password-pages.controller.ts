import { Body, Controller, Get, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { isEmail } from 'class-validator';
import { Public } from '@/common/auth';
import { TaggedError } from '@/common/errors';
import { html, page } from '@/common/http/html';
import { HttpReply, HttpRequest, requestOrigin } from '@/common/http/http';
import { consoleAccessConfig, ConsoleAccessConfig } from '../console-access/console-access.config';
import { setSessionCookie } from '../console-access/session-cookie';
import { IdentityService } from '../identity/identity.service';
import { PasswordResetService } from '../identity/password-reset.service';
import { MIN_PASSWORD_LENGTH } from '../identity/password.service';
import { CsrfService } from './csrf.service';
import { forgotPasswordForm, resetPasswordForm } from './views';

type Form = Record<string, unknown>;

function text(form: Form, name: string, max = 1024): string {
  const value = form[name];
  return typeof value === 'string' ? value.slice(0, max) : '';
}

/** "Forgot password?" and the page of a reset link: server-rendered forms, usable without JavaScript. */
@ApiExcludeController()
@Public()
@Controller('console')
export class PasswordPagesController {
  constructor(
    private readonly identity: IdentityService,
    private readonly resets: PasswordResetService,
    private readonly csrf: CsrfService,
    @Inject(consoleAccessConfig.KEY) private readonly access: ConsoleAccessConfig,
  ) {}

  private send(response: HttpReply, status: number, body: string): void {
    response.status(status).header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(body);
  }

  private checkCsrf(request: HttpRequest, response: HttpReply, form: Form): boolean {
    return this.csrf.checkForm(request, response, form);
  }

  @Get('forgot-password')
  async forgotPasswordPage(@Req() request: HttpRequest, @Res() response: HttpReply) {
    const csrf = this.csrf.token(request, response);
    this.send(
      response,
      200,
      page({ title: 'Forgot password' }, forgotPasswordForm(csrf, this.resets.byEmail)),
    );
  }

  @Post('forgot-password')
  async forgotPassword(@Req() request: HttpRequest, @Res() response: HttpReply, @Body() form: Form = {}) {
    if (!this.checkCsrf(request, response, form)) return;
    const email = text(form, 'email', 320).trim();
    const csrf = this.csrf.token(request, response);
    const retry = (status: number, error: string) =>
      this.send(
        response,
        status,
        page({ title: 'Forgot password', error }, forgotPasswordForm(csrf, this.resets.byEmail, email)),
      );
    if (!isEmail(email)) return retry(400, 'Enter a valid email address.');
    try {
      await this.resets.request(email, request.ip ?? '', this.access.origin ?? requestOrigin(request));
    } catch (error) {
      if (!(error instanceof TaggedError)) throw error;
      return retry(error.status, error.message);
    }
    const notice = this.resets.byEmail
      ? `If an account has the email ${email}, a link to reset its password is on its way. It works once, for an hour.`
      : 'This console does not send email: ask an owner of your workspace for a reset link.';
    this.send(
      response,
      200,
      page({ title: 'Forgot password', notice }, html`<p><a href="/console/login">Back to sign-in</a></p>`),
    );
  }

  @Get('reset-password/:token')
  async resetPasswordPage(
    @Req() request: HttpRequest,
    @Res() response: HttpReply,
    @Param('token') token: string,
  ) {
    try {
      const email = await this.resets.describe(token);
      const csrf = this.csrf.token(request, response);
      this.send(response, 200, page({ title: 'Set a new password' }, resetPasswordForm(csrf, token, email)));
    } catch (error) {
      if (!(error instanceof TaggedError)) throw error;
      this.resetRefused(response, error);
    }
  }

  private resetRefused(response: HttpReply, error: TaggedError): void {
    const again = html`<p><a href="/console/forgot-password">Ask for a new link</a></p>`;
    this.send(response, error.status, page({ title: 'Set a new password', error: error.message }, again));
  }

  @Post('reset-password/:token')
  async resetPassword(
    @Req() request: HttpRequest,
    @Res() response: HttpReply,
    @Param('token') token: string,
    @Body() form: Form = {},
  ) {
    if (!this.checkCsrf(request, response, form)) return;
    const password = text(form, 'password');
    try {
      if (password.length < MIN_PASSWORD_LENGTH) {
        const email = await this.resets.describe(token);
        const csrf = this.csrf.token(request, response);
        const error = `The password needs at least ${MIN_PASSWORD_LENGTH} characters.`;
        return this.send(
          response,
          400,
          page({ title: 'Set a new password', error }, resetPasswordForm(csrf, token, email)),
        );
      }
      const { session } = await this.resets.complete(token, password);
      setSessionCookie(request, response, session, this.identity.sessionLifetimeMs);
      response.redirect('/console?notice=password_set', 303);
    } catch (error) {
      if (!(error instanceof TaggedError)) throw error;
      this.resetRefused(response, error);
    }
  }
}
