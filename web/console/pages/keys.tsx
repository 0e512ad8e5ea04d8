import { useState } from 'preact/hooks';
import { api, call, isAdmin } from '../api';
import type { PageProps } from '../main';
import { deleteThrough, ErrorText, Loading, ShownOnce, useAction, useLoad } from '../ui';
import {
  type Created,
  CredentialRows,
  NewCredentialForm,
  useKeySpend,
  useKnownModels,
} from './key-credentials';
import { ServiceAccounts } from './key-service-accounts';

export function KeysPage({ workspace }: PageProps) {
  const org = workspace.id;
  const [created, setCreated] = useState<Created>();
  const personal = useLoad(
    () => call(api.GET('/console/api/orgs/{org}/keys', { params: { path: { org } } })),
    [org],
  );
  const tokens = useLoad(() => call(api.GET('/console/api/tokens')), []);
  const knownModels = useKnownModels(org);
  const spent = useKeySpend(org, isAdmin(workspace.role));
  const action = useAction();
  return (
    <>
      {created ? (
        <ShownOnce title={created.title} secret={created.secret} onDone={() => setCreated(undefined)} />
      ) : null}
      {isAdmin(workspace.role) ? (
        <ServiceAccounts org={org} knownModels={knownModels} spent={spent} onCreated={setCreated} />
      ) : (
        <p class="muted">Only owners and admins of {workspace.name} manage service accounts.</p>
      )}
      <section aria-labelledby="personal-keys">
        <h2 id="personal-keys">Your keys in {workspace.name}</h2>
        <Loading state={personal}>
          {(list) => (
            <CredentialRows
              items={list}
              caption="Your keys"
              controls={{
                knownModels,
                spent,
                onSave: async (key, changes) => {
                  await call(
                    api.PATCH('/console/api/orgs/{org}/keys/{id}', {
                      params: { path: { org, id: key.id } },
                      body: changes,
                    }),
                  );
                  personal.reload();
                },
              }}
              onRevoke={(key) =>
                deleteThrough(
                  action,
                  () =>
                    api.DELETE('/console/api/orgs/{org}/keys/{id}', {
                      params: { path: { org, id: key.id } },
                    }),
                  personal.reload,
                )
              }
            />
          )}
        </Loading>
        <NewCredentialForm
          idPrefix="personal"
          withPermission
          submitLabel="Create personal key"
          onCreate={async (input) => {
            const key = await call(
              api.POST('/console/api/orgs/{org}/keys', { params: { path: { org } }, body: input }),
            );
            personal.reload();
            setCreated({ title: `Your key “${key.name}”`, secret: key.key });
          }}
        />
      </section>
      <section aria-labelledby="user-tokens">
        <h2 id="user-tokens">Your user tokens</h2>
        <p class="muted">
          A user token acts as you, with your role, in the workspace named by its <code>x-org-id</code>{' '}
          header.
        </p>
        <Loading state={tokens}>
          {(list) => (
            <CredentialRows
              items={list}
              caption="Your user tokens"
              empty="No user tokens yet."
              onRevoke={(token) =>
                deleteThrough(
                  action,
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
            setCreated({ title: `User token “${token.name}”`, secret: token.token });
          }}
        />
      </section>
      <ErrorText message={action.error} />
    </>
  );
}
