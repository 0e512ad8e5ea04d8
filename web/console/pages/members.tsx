import { useState } from 'preact/hooks';
import { api, call, day, isAdmin, type Role, type Schemas } from '../api';
import { TextField } from '../field-errors';
import type { PageProps } from '../main';
import { LoadedTable } from '../table';
import { type Action, DeleteButton, ErrorText, Notice, ShownOnce, useAction, useLoad } from '../ui';

const ROLES: Role[] = ['owner', 'admin', 'member'];

const withArticle = (role: Role) => `${/^[aeiou]/.test(role) ? 'an' : 'a'} ${role}`;

/**
 * A member's role: choosing another only asks (a stray arrow key on a focused select must not change anyone's
 * rights); the change happens on "Change role".
 */
function RoleSelect(props: {
  member: Schemas['MemberDto'];
  mine: Role;
  onChange: (role: Role) => Promise<unknown>;
}) {
  const id = `role-${props.member.user_id}`;
  const [chosen, setChosen] = useState<Role>(props.member.role);
  const asking = chosen !== props.member.role;
  return (
    <>
      <label for={id} class="sr">
        Role of {props.member.name}
      </label>
      <select
        id={id}
        class="role-select"
        value={chosen}
        onChange={(e) => setChosen(e.currentTarget.value as Role)}
      >
        {ROLES.filter(
          (role) => role !== 'owner' || props.mine === 'owner' || props.member.role === 'owner',
        ).map((role) => (
          <option value={role} key={role}>
            {role}
          </option>
        ))}
      </select>
      {asking ? (
        <span role="group" aria-label={`Confirm the role of ${props.member.name}`} class="confirm-role">
          <span class="small">
            Make {props.member.name} {withArticle(chosen)}?{' '}
          </span>
          <button type="button" onClick={() => void props.onChange(chosen)}>
            Change role
          </button>{' '}
          <button type="button" class="secondary" onClick={() => setChosen(props.member.role)}>
            Cancel
          </button>
        </span>
      ) : null}
    </>
  );
}

type Invited = { email: string; url: string; replaced: boolean; emailed: boolean };

/** An email and a role; the invitation's link comes back (`onInvited`). */
function InviteForm(props: {
  org: string;
  role: Role;
  action: Action;
  onInvited: (invited: Invited) => void;
}) {
  const [email, setEmail] = useState('');
  const [inviteRole, setInviteRole] = useState<Role>('member');
  return (
    <form
      class="row"
      onSubmit={async (event) => {
        event.preventDefault();
        await props.action.run(async () => {
          const invite = await call(
            api.POST('/console/api/orgs/{org}/invites', {
              params: { path: { org: props.org } },
              body: { email: email.trim(), role: inviteRole },
            }),
          );
          setEmail('');
          props.onInvited({
            email: email.trim(),
            url: invite.url,
            replaced: invite.replaced_earlier,
            emailed: invite.emailed,
          });
        });
      }}
    >
      <TextField
        id="invite-email"
        label="Email"
        value={email}
        onValue={setEmail}
        input={{ type: 'email', required: true, maxLength: 320 }}
      />
      <div>
        <label for="invite-role">Role</label>
        <select
          id="invite-role"
          value={inviteRole}
          onChange={(e) => setInviteRole(e.currentTarget.value as Role)}
        >
          {ROLES.filter((r) => r !== 'owner' || props.role === 'owner').map((r) => (
            <option value={r} key={r}>
              {r}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" disabled={props.action.busy}>
        Invite
      </button>
    </form>
  );
}

function Invitations({ org, role }: { org: string; role: Role }) {
  const pending = useLoad(
    () => call(api.GET('/console/api/orgs/{org}/invites', { params: { path: { org } } })),
    [org],
  );
  const [link, setLink] = useState<Invited>();
  const action = useAction();
  return (
    <section aria-labelledby="invite">
      <h2 id="invite">Invite someone</h2>
      {link?.replaced ? (
        <p class="notice" role="status">
          {link.email} had an invitation already: the earlier link no longer works; send this one.
        </p>
      ) : null}
      {link?.emailed ? (
        <p class="notice" role="status">
          The invitation was emailed to {link.email}.
        </p>
      ) : null}
      {link && !link.emailed ? (
        <ShownOnce
          title={`Invitation for ${link.email}`}
          secret={link.url}
          what="link"
          onDone={() => setLink(undefined)}
        />
      ) : null}
      <InviteForm
        org={org}
        role={role}
        action={action}
        onInvited={(invited) => {
          setLink(invited);
          pending.reload();
        }}
      />
      <ErrorText message={action.error} />
      <h2>Pending invitations</h2>
      <LoadedTable
        state={pending}
        rowKey={(invite) => invite.id}
        empty="No pending invitation."
        columns={[
          { header: 'Email', cell: (invite) => invite.email },
          { header: 'Role', cell: (invite) => invite.role },
          { header: 'Sent', cell: (invite) => day(invite.created_at) },
          { header: 'Expires', cell: (invite) => day(invite.expires_at) },
        ]}
        action={(invite) => (
          <DeleteButton
            label="Revoke"
            ariaLabel={`Revoke the invitation of ${invite.email}`}
            question={`Revoke the invitation of ${invite.email}?`}
            action={action}
            request={() =>
              api.DELETE('/console/api/orgs/{org}/invites/{id}', {
                params: { path: { org, id: invite.id } },
              })
            }
            onDone={pending.reload}
          />
        )}
      />
    </section>
  );
}

/** An owner's single-use password reset link for a person, to hand over (refusals say why, e.g. other workspaces). */
function ResetLinkButton(props: {
  member: Schemas['MemberDto'];
  org: string;
  action: Action;
  onLink: (url: string) => void;
}) {
  return (
    <button
      type="button"
      class="secondary"
      aria-label={`Reset password of ${props.member.name}`}
      disabled={props.action.busy}
      onClick={() =>
        void props.action.run(async () => {
          const link = await call(
            api.POST('/console/api/orgs/{org}/members/{user_id}/password-reset', {
              params: { path: { org: props.org, user_id: props.member.user_id } },
              // The route reads no body; a cookie's change carries a JSON one all the same (the CSRF rule).
              body: {} as never,
            }),
          );
          props.onLink(link.url);
        })
      }
    >
      Reset password
    </button>
  );
}

function ResetLinkShown(props: { name: string; url: string; onDone: () => void }) {
  return (
    <ShownOnce
      title={`Password reset link for ${props.name}`}
      secret={props.url}
      what="link"
      onDone={props.onDone}
    >
      <p class="small">
        It works once, for an hour. Every other sign-in of the account ends when it is used.
      </p>
    </ShownOnce>
  );
}

/**
 * Remove a person (for admins), or leave the workspace (oneself); for owners, a password reset link for someone
 * else. Service accounts are removed under Keys.
 */
function MemberAction(props: {
  member: Schemas['MemberDto'];
  self: boolean;
  admin: boolean;
  workspace: PageProps['workspace'];
  action: Action;
  onRemoved: () => void;
  onResetLink: (url: string) => void;
}) {
  const { member, self, workspace } = props;
  if (member.kind !== 'person' || !(props.admin || self)) return null;
  const reset =
    workspace.role === 'owner' && !self ? (
      <ResetLinkButton member={member} org={workspace.id} action={props.action} onLink={props.onResetLink} />
    ) : null;
  return (
    <>
      {reset}{' '}
      <DeleteButton
        label={self ? 'Leave' : 'Remove'}
        ariaLabel={self ? `Leave ${workspace.name}` : `Remove ${member.name}`}
        question={self ? `Leave ${workspace.name}?` : `Remove ${member.name} from ${workspace.name}?`}
        action={props.action}
        request={() =>
          api.DELETE('/console/api/orgs/{org}/members/{user_id}', {
            params: { path: { org: workspace.id, user_id: member.user_id } },
          })
        }
        onDone={() => (self ? location.assign('/console') : props.onRemoved())}
      />
    </>
  );
}

export function MembersPage({ workspace, me }: PageProps) {
  const org = workspace.id;
  const admin = isAdmin(workspace.role);
  const members = useLoad(
    () => call(api.GET('/console/api/orgs/{org}/members', { params: { path: { org } } })),
    [org],
  );
  const [notice, setNotice] = useState<string>();
  const [resetLink, setResetLink] = useState<{ name: string; url: string }>();
  const action = useAction();
  const change = (member: Schemas['MemberDto'], role: Role) =>
    action.run(async () => {
      setNotice(undefined);
      try {
        await call(
          api.PATCH('/console/api/orgs/{org}/members/{user_id}', {
            params: { path: { org, user_id: member.user_id } },
            body: { role },
          }),
        );
        setNotice(`${member.name} is now ${withArticle(role)}.`);
      } finally {
        members.reload();
      }
    });
  return (
    <>
      <h2>Members of {workspace.name}</h2>
      <Notice message={notice} />
      <ErrorText message={action.error} />
      {resetLink ? <ResetLinkShown {...resetLink} onDone={() => setResetLink(undefined)} /> : null}
      <LoadedTable
        state={members}
        rowKey={(member) => member.user_id}
        columns={[
          {
            header: 'Name',
            cell: (member) => (
              <>
                {member.name}
                {member.user_id === me.id ? ' (you)' : ''}
                {member.kind === 'person' ? '' : <span class="muted small"> service account</span>}
              </>
            ),
          },
          { header: 'Email', cell: (member) => member.email ?? '—' },
          {
            header: 'Role',
            cell: (member) =>
              admin && member.kind === 'person' ? (
                <RoleSelect member={member} mine={workspace.role} onChange={(role) => change(member, role)} />
              ) : (
                member.role
              ),
          },
        ]}
        action={(member) => (
          <MemberAction
            member={member}
            self={member.user_id === me.id}
            admin={admin}
            workspace={workspace}
            action={action}
            onRemoved={() => {
              setNotice(`${member.name} was removed.`);
              members.reload();
            }}
            onResetLink={(url) => setResetLink({ name: member.name, url })}
          />
        )}
      />
      {admin ? (
        <Invitations org={org} role={workspace.role} />
      ) : (
        <p class="muted">Only owners and admins invite people and change roles.</p>
      )}
    </>
  );
}
