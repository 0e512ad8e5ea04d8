import { useState } from 'preact/hooks';
import { api, call, day, type Schemas } from '../api';
import { DeleteButton, deleteThrough, ErrorText, Loading, Notice, useAction, useLoad } from '../ui';
import { type Created, CredentialRows, NewCredentialForm } from './key-credentials';

function RenameForm(props: {
  org: string;
  account: Schemas['ServiceAccountDto'];
  onRenamed: (name: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState(props.account.name);
  const action = useAction();
  if (!open) {
    return (
      <button
        type="button"
        class="secondary"
        aria-label={`Rename ${props.account.name}`}
        onClick={() => setOpen(true)}
      >
        Rename
      </button>
    );
  }
  const id = `rename-${props.account.id}`;
  return (
    <form
      class="row"
      onSubmit={async (event) => {
        event.preventDefault();
        const ok = await action.run(() =>
          call(
            api.PATCH('/console/api/orgs/{org}/service-accounts/{sa}', {
              params: { path: { org: props.org, sa: props.account.id } },
              body: { name: name.trim() },
            }),
          ),
        );
        if (ok) {
          setOpen(false);
          props.onRenamed(name.trim());
        }
      }}
    >
      <div>
        <label for={id}>New name of {props.account.name}</label>
        <input
          id={id}
          type="text"
          required
          maxLength={200}
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
        />
      </div>
      <button type="submit" disabled={action.busy}>
        Save name
      </button>
      <button type="button" class="secondary" onClick={() => setOpen(false)}>
        Cancel
      </button>
      <ErrorText message={action.error} />
    </form>
  );
}

function ServiceAccount(props: {
  org: string;
  knownModels: string[];
  spent: Map<string, number>;
  account: Schemas['ServiceAccountDto'];
  onCreated: (created: Created) => void;
  onRemoved: (message: string) => void;
  onRenamed: (message: string) => void;
}) {
  const { org, account } = props;
  const keys = useLoad(
    () =>
      call(
        api.GET('/console/api/orgs/{org}/service-accounts/{sa}/keys', {
          params: { path: { org, sa: account.id } },
        }),
      ),
    [org, account.id],
  );
  const action = useAction();
  const active = keys.data?.filter((key) => key.status === 'active').length ?? 0;
  return (
    <section class="panel" aria-labelledby={`sa-${account.id}`}>
      <h3 id={`sa-${account.id}`}>{account.name}</h3>
      <div class="muted small">
        Service account, added {day(account.created_at)}.{' '}
        {/* The id is for the API (budgets name members by it), not for reading. */}
        <details class="inline-details">
          <summary>API id</summary>
          <code>{account.id}</code>
        </details>
      </div>
      <Loading state={keys}>
        {(list) => (
          <CredentialRows
            items={list}
            caption={`Keys of ${account.name}`}
            controls={{
              knownModels: props.knownModels,
              spent: props.spent,
              onSave: async (key, changes) => {
                await call(
                  api.PATCH('/console/api/orgs/{org}/service-accounts/{sa}/keys/{id}', {
                    params: { path: { org, sa: account.id, id: key.id } },
                    body: changes,
                  }),
                );
                keys.reload();
              },
            }}
            onRevoke={(key) =>
              deleteThrough(
                action,
                () =>
                  api.DELETE('/console/api/orgs/{org}/service-accounts/{sa}/keys/{id}', {
                    params: { path: { org, sa: account.id, id: key.id } },
                  }),
                keys.reload,
              )
            }
          />
        )}
      </Loading>
      <h4>Create key</h4>
      <NewCredentialForm
        idPrefix={`key-${account.id}`}
        withPermission
        submitLabel="Create key"
        onCreate={async (input) => {
          const created = await call(
            api.POST('/console/api/orgs/{org}/service-accounts/{sa}/keys', {
              params: { path: { org, sa: account.id } },
              body: input,
            }),
          );
          keys.reload();
          props.onCreated({ title: `Key “${created.name}” of ${account.name}`, secret: created.key });
        }}
      />
      <p>
        <RenameForm
          org={org}
          account={account}
          onRenamed={(name) => props.onRenamed(`${account.name} is now ${name}.`)}
        />{' '}
        <DeleteButton
          label="Remove service account"
          ariaLabel={`Remove service account ${account.name}`}
          question={`Remove ${account.name}? This revokes ${active} ${active === 1 ? 'key' : 'keys'}.`}
          confirm="Yes, remove"
          action={action}
          request={() =>
            api.DELETE('/console/api/orgs/{org}/service-accounts/{sa}', {
              params: { path: { org, sa: account.id } },
            })
          }
          onDone={() => props.onRemoved(`${account.name} was removed and its keys revoked.`)}
        />
      </p>
      <ErrorText message={action.error} />
    </section>
  );
}

export function ServiceAccounts({
  org,
  knownModels,
  spent,
  onCreated,
}: {
  org: string;
  knownModels: string[];
  spent: Map<string, number>;
  onCreated: (created: Created) => void;
}) {
  const accounts = useLoad(
    () => call(api.GET('/console/api/orgs/{org}/service-accounts', { params: { path: { org } } })),
    [org],
  );
  const [name, setName] = useState('');
  const [notice, setNotice] = useState<string>();
  const action = useAction();
  return (
    <section aria-labelledby="service-accounts">
      <h2 id="service-accounts">Service accounts</h2>
      <p class="muted">
        Non-human members with their own keys, usage and budget: CI jobs, bots, integrations.
      </p>
      <Notice message={notice} />
      <form
        class="row"
        onSubmit={async (event) => {
          event.preventDefault();
          const ok = await action.run(async () => {
            await call(
              api.POST('/console/api/orgs/{org}/service-accounts', {
                params: { path: { org } },
                body: { name: name.trim() },
              }),
            );
          });
          if (ok) {
            setNotice(`Service account ${name.trim()} added.`);
            setName('');
            accounts.reload();
          }
        }}
      >
        <div>
          <label for="sa-name">Service account name</label>
          <input
            id="sa-name"
            type="text"
            required
            maxLength={200}
            placeholder="ci"
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </div>
        <button type="submit" disabled={action.busy}>
          Add service account
        </button>
      </form>
      <ErrorText message={action.error} />
      <Loading state={accounts}>
        {(list) =>
          list.length === 0 ? (
            <p class="muted">No service account yet.</p>
          ) : (
            <>
              {list.map((account) => (
                <ServiceAccount
                  key={account.id}
                  org={org}
                  knownModels={knownModels}
                  spent={spent}
                  account={account}
                  onCreated={onCreated}
                  onRemoved={(message) => {
                    setNotice(message);
                    accounts.reload();
                  }}
                  onRenamed={(message) => {
                    setNotice(message);
                    accounts.reload();
                  }}
                />
              ))}
            </>
          )
        }
      </Loading>
    </section>
  );
}
