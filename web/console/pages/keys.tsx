import { useState } from 'preact/hooks';
import { api, call, isAdmin } from '../api';
import type { PageProps } from '../main';
import { type Action, deleteThrough, ErrorText, Loading, ShownOnce, useAction, useLoad } from '../ui';
import { type Created, CredentialRows, KeyRows, NewCredentialForm, useKeySpend } from './key-credentials';
import { ServiceAccounts } from './key-service-accounts';
import { type ModelChoice, useModelChoices } from './model-picker';
import { KeyUsage } from './key-usage';

function PersonalKeys(props: {
  workspace: PageProps['workspace'];
  knownModels: ModelChoice[];
  spent: Map<string, number>;
  action: Action;
  onCreated: (created: Created) => void;
}) {
  const org = props.workspace.id;
  const personal = useLoad(
    () => call(api.GET('/console/api/orgs/{org}/keys', { params: { path: { org } } })),
    [org],
  );
  return (
    <section aria-labelledby="personal-keys">
      <h2 id="personal-keys">Your keys in {props.workspace.name}</h2>
      <KeyRows
        keys={personal}
        caption="Your keys"
        knownModels={props.knownModels}
        spent={props.spent}
        action={props.action}
        patch={(id, body) =>
          api.PATCH('/console/api/orgs/{org}/keys/{id}', { params: { path: { org, id } }, body })
        }
        remove={(id) => api.DELETE('/console/api/orgs/{org}/keys/{id}', { params: { path: { org, id } } })}
      />
      <NewCredentialForm
        idPrefix="personal"
        withPermission
        submitLabel="Create personal key"
        onCreate={async (input) => {
          const key = await call(
            api.POST('/console/api/orgs/{org}/keys', { params: { path: { org } }, body: input }),
          );
          personal.reload();
          props.onCreated({ title: `Your key “${key.name}”`, secret: key.key, use: 'inference' });
        }}
      />
    </section>
  );
}

function UserTokens(props: { action: Action; onCreated: (created: Created) => void }) {
  const tokens = useLoad(() => call(api.GET('/console/api/tokens')), []);
  return (
    <section aria-labelledby="user-tokens">
      <h2 id="user-tokens">Your user tokens</h2>
      <p class="muted">
        A user token acts as you, with your role, in the workspace named by its <code>x-org-id</code> header.
      </p>
      <Loading state={tokens}>
        {(list) => (
          <CredentialRows
            items={list}
            caption="Your user tokens"
            empty="No user tokens yet."
            onRevoke={(token) =>
              deleteThrough(
                props.action,
                () => api.DELETE('/console/api/tokens/{id}', { params: { path: { id: token.id } } }),
                tokens.reload,
              )
            }
          />
        )}
      </Loading>
      <NewCredentialForm
        idPrefix="token"
        withPermission={false}
        submitLabel="Create user token"
        onCreate={async (input) => {
          const token = await call(
            api.POST('/console/api/tokens', { body: { name: input.name, expires_at: input.expires_at } }),
          );
          tokens.reload();
          props.onCreated({ title: `User token “${token.name}”`, secret: token.token, use: 'console' });
        }}
      />
    </section>
  );
}

export function KeysPage({ workspace }: PageProps) {
  const org = workspace.id;
  const [created, setCreated] = useState<Created>();
  const knownModels = useModelChoices(org, isAdmin(workspace.role));
  const spent = useKeySpend(org, isAdmin(workspace.role));
  const action = useAction();
  return (
    <>
      {created ? (
        <ShownOnce
          title={created.title}
          secret={created.secret}
          level={2}
          what={created.use === 'console' ? 'token' : 'key'}
          onDone={() => setCreated(undefined)}
        >
          <KeyUsage secret={created.secret} use={created.use} org={org} model={knownModels[0]?.value} />
        </ShownOnce>
      ) : null}
      {isAdmin(workspace.role) ? (
        <ServiceAccounts org={org} knownModels={knownModels} spent={spent} onCreated={setCreated} />
      ) : (
        <p class="muted">Only owners and admins of {workspace.name} manage service accounts.</p>
      )}
      <PersonalKeys
        workspace={workspace}
        knownModels={knownModels}
        spent={spent}
        action={action}
        onCreated={setCreated}
      />
      <UserTokens action={action} onCreated={setCreated} />
      <ErrorText message={action.error} />
    </>
  );
}
