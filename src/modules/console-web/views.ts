import type { UsableInvite } from '../workspaces/usable-invite';
import type { PendingAuthorization } from '../device/device-flow.service';
import type { WorkspaceWithRole } from '../workspaces/workspaces.service';
import { csrfField, Html, html } from '@/common/http/html';

const linkWithNext = (path: string, next: string, extra = '') =>
  `${path}?next=${encodeURIComponent(next)}${extra}`;

/** "Sign in with <name>", above the password form, when an identity provider is configured. */
function ssoButton(next: string, sso: string | undefined): Html {
  if (!sso) return html``;
  return html`<p>
      <a class="button" href="${linkWithNext('/console/auth/oidc/start', next)}">Sign in with ${sso}</a>
    </p>
    <p class="muted small">or with your email and password:</p>`;
}

export function loginForm(csrf: string, next: string, email = '', sso?: string): Html {
  return html`${ssoButton(next, sso)}
    <form method="post" action="/console/login">
      ${csrfField(csrf)}<input type="hidden" name="next" value="${next}" />
      <label for="email">Email</label>
      <input type="email" id="email" name="email" autocomplete="username" required value="${email}" />
      <label for="password">Password</label>
      <input type="password" id="password" name="password" autocomplete="current-password" required />
      <button type="submit">Sign in</button>
    </form>
    <p><a href="/console/forgot-password">Forgot password?</a></p>
    <p>No account yet? <a href="${linkWithNext('/console/signup', next)}">Create one</a>.</p>`;
}

export function forgotPasswordForm(csrf: string, byEmail: boolean, email = ''): Html {
  const how = byEmail
    ? html`<p>Enter the email of your account: we send a link to set a new password.</p>`
    : html`<p>
        This console does not send email. An owner of your workspace can make a reset link for you (Members
        page), or the server's operator with
        <code>outpost console reset-password --email you@example.com</code>.
      </p>`;
  return html`${how}
    <form method="post" action="/console/forgot-password">
      ${csrfField(csrf)}
      <label for="email">Email</label>
      <input type="email" id="email" name="email" autocomplete="username" required value="${email}" />
      <button type="submit">Send the link</button>
    </form>
    <p><a href="/console/login">Back to sign-in</a></p>`;
}

export function resetPasswordForm(csrf: string, token: string, email: string): Html {
  return html`<p>
      Set a new password for <strong>${email}</strong>. Every other sign-in of this account ends.
    </p>
    <form method="post" action="/console/reset-password/${token}">
      ${csrfField(csrf)}
      <input type="hidden" name="email" autocomplete="username" value="${email}" />
      <label for="password">New password (at least 10 characters)</label>
      <input
        type="password"
        id="password"
        name="password"
        autocomplete="new-password"
        minlength="10"
        required
      />
      <button type="submit">Set the password</button>
    </form>`;
}

export function signupForm(csrf: string, next: string, invite: string, email = ''): Html {
  return html`<form method="post" action="/console/signup">
      ${csrfField(csrf)}<input type="hidden" name="next" value="${next}" />
      <input type="hidden" name="invite" value="${invite}" />
      <label for="email">Email</label>
      <input type="email" id="email" name="email" autocomplete="email" required value="${email}" />
      <label for="name">Name (optional)</label>
      <input type="text" id="name" name="name" autocomplete="name" maxlength="200" />
      <label for="password">Password (at least 10 characters)</label>
      <input
        type="password"
        id="password"
        name="password"
        autocomplete="new-password"
        minlength="10"
        required
      />
      <button type="submit">Create account</button>
    </form>
    <p>Have an account? <a href="${linkWithNext('/console/login', next)}">Sign in</a>.</p>`;
}

/** Entering (or correcting) the code shown on the device. */
export function codeForm(csrf: string, value = ''): Html {
  return html`<form method="post" action="/console/device">
    ${csrfField(csrf)}<input type="hidden" name="action" value="check" />
    <label for="user_code">Code shown on your device</label>
    <input
      type="text"
      id="user_code"
      name="user_code"
      autocomplete="off"
      autocapitalize="characters"
      spellcheck="false"
      placeholder="XXXX-XXXX"
      maxlength="20"
      required
      value="${value}"
    />
    <button type="submit">Continue</button>
  </form>`;
}

export function approvalForm(
  csrf: string,
  pending: PendingAuthorization,
  email: string,
  workspaces: WorkspaceWithRole[],
): Html {
  const chooser = pending.supportsOrgScope
    ? html`<fieldset>
        <legend>Workspace this device signs in to</legend>
        ${workspaces.map(
          (workspace, i) =>
            html`<div>
              <input
                type="radio"
                id="org-${workspace.id}"
                name="org"
                value="${workspace.id}"
                ${i === 0 ? html`checked` : html``}
                required
              />
              <label for="org-${workspace.id}">${workspace.name} (${workspace.role})</label>
            </div>`,
        )}
      </fieldset>`
    : html``;
  return html`<p>
      <strong>${pending.clientId}</strong> asks to sign in to the console as <strong>${email}</strong>.
    </p>
    <p id="code-hint">Approve only if this code is the one shown on your device:</p>
    <p class="code" aria-describedby="code-hint" data-testid="user-code">${pending.userCode}</p>
    <form method="post" action="/console/device">
      ${csrfField(csrf)}<input type="hidden" name="user_code" value="${pending.userCode}" />
      ${chooser}
      <button type="submit" name="action" value="approve">Approve</button>
      <button type="submit" name="action" value="deny" class="secondary">Deny</button>
    </form>
    <h2>Not the same code?</h2>
    ${codeForm(csrf)}`;
}

export interface DeviceSessionView {
  id: string;
  clientId: string;
  workspace: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** A time as `YYYY-MM-DD HH:MM UTC`, the same for every reader (as the console app shows it). */
function readableTime(time: Date): string {
  const iso = time.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

export function homeBody(csrf: string, workspaces: WorkspaceWithRole[], devices: DeviceSessionView[]): Html {
  const rows = devices.map(
    (device) =>
      html`<tr>
        <td data-label="Client">${device.clientId}</td>
        <td data-label="Workspace">${device.workspace}</td>
        <td data-label="Signed in">${readableTime(device.createdAt)}</td>
        <td data-label="Last used">${device.lastUsedAt ? readableTime(device.lastUsedAt) : 'never'}</td>
        <td>
          <form method="post" action="/console/sessions/${device.id}/revoke">
            ${csrfField(csrf)}
            <button
              type="submit"
              aria-label="Sign out ${device.clientId} signed in ${device.createdAt.toISOString()}"
            >
              Sign out
            </button>
          </form>
        </td>
      </tr>`,
  );
  return html`<h2>Your workspaces</h2>
    <ul>
      ${workspaces.map(
        (workspace) =>
          html`<li>
            <a href="/console/keys?org=${workspace.id}">${workspace.name}</a>
            <span class="muted small"
              >— you are ${/^[aeiou]/.test(workspace.role) ? 'an' : 'a'} ${workspace.role}</span
            >
          </li>`,
      )}
    </ul>
    <h2>Devices signed in</h2>
    ${
      devices.length === 0
        ? html`<p>No device is signed in.</p>`
        : html`<table>
            <caption>
              Device sign-ins
            </caption>
            <thead>
              <tr>
                <th scope="col">Client</th>
                <th scope="col">Workspace</th>
                <th scope="col">Signed in</th>
                <th scope="col">Last used</th>
                <th scope="col"><span class="sr">Action</span></th>
              </tr>
            </thead>
            <tbody>
              ${rows}
            </tbody>
          </table>`
    }
    <p><a href="/console/device">Sign in a device with a code</a></p>`;
}

/** "Ann Lee (ann@example.com) invites you", or "You are invited" when nobody is known to have sent it. */
export function invitedWords(invite: UsableInvite): string {
  const who = invite.invitedBy
    ? `${invite.invitedBy.name} (${invite.invitedBy.email}) invites you`
    : 'You are invited';
  return `${who} to join ${invite.workspace} as ${invite.role === 'admin' || invite.role === 'owner' ? 'an' : 'a'} ${invite.role}`;
}

export function inviteBody(csrf: string, token: string, invite: UsableInvite): Html {
  return html`<p>${invitedWords(invite)} (an invitation for ${invite.email}).</p>
    <form method="post" action="/console/invites/${token}">
      ${csrfField(csrf)} <button type="submit">Accept the invitation</button>
    </form>`;
}
