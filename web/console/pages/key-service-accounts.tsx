import { useState } from 'preact/hooks';
import { api, call, day, type Schemas } from '../api';
import { TextField } from '../field-errors';
import { type Action, DeleteButton, ErrorText, Loading, Notice, useAction, useLoad } from '../ui';
import { type Created, KeyRows, NewCredentialForm } from './key-credentials';
import type { ModelChoice } from './model-picker';

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
      <TextField
        id={id}
        label={`New name of ${props.account.name}`}
        value={name}
        onValue={setName}
        input={{ required: true, maxLength: 200 }}
      />
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

/** Rename the account, or remove it (which revokes its `active` keys). */
function AccountActions(props: {
  org: string;
  account: Schemas['ServiceAccountDto'];
  active: number;
  action: Action;
  onChanged: (message: string) => void;
}) {
  const { org, account, active } = props;
  return (
    <p>
      <RenameForm
        org={org}
        account={account}
        onRenamed={(name) => props.onChanged(`${account.name} is now ${name}.`)}
      />{' '}
      <DeleteButton
        label="Remove service account"
        ariaLabel={`Remove service account ${account.name}`}
        question={`Remove ${account.name}? This revokes ${active} ${active === 1 ? 'key' : 'keys'}.`}
        confirm="Yes, remove"
        action={props.action}
        request={() =>
          api.DELETE('/console/api/orgs/{org}/service-accounts/{sa}', {
            params: { path: { org, sa: account.id } },
          })
        }
        onDone={() => props.onChanged(`${account.name} was removed and its keys revoked.`)}
      />
    </p>
  );
}

function ServiceAccount(props: {
  org: string;
  knownModels: ModelChoice[];
  spent: Map<string, number>;
  account: Schemas['ServiceAccountDto'];
  onCreated: (created: Created) => void;
  /** The account was renamed or removed: the message says which. */
  onChanged: (message: string) => void;
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
      <KeyRows
        keys={keys}
        caption={`Keys of ${account.name}`}
        knownModels={props.knownModels}
        spent={props.spent}
        action={action}
        patch={(id, body) =>
          api.PATCH('/console/api/orgs/{org}/service-accounts/{sa}/keys/{id}', {
            params: { path: { org, sa: account.id, id } },
            body,
          })
        }
        remove={(id) =>
          api.DELETE('/console/api/orgs/{org}/service-accounts/{sa}/keys/{id}', {
            params: { path: { org, sa: account.id, id } },
          })
        }
      />
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
          props.onCreated({
            title: `Key “${created.name}” of ${account.name}`,
            secret: created.key,
            use: 'inference',
          });
        }}
      />
      <AccountActions
        org={org}
        account={account}
        active={keys.data?.filter((key) => key.status === 'active').length ?? 0}
        action={action}
        onChanged={props.onChanged}
      />
      <ErrorText message={action.error} />
    </section>
  );
}

function NewServiceAccount(props: { org: string; onAdded: (name: string) => void }) {
  const [name, setName] = useState('');
  const action = useAction();
  return (
    <>
      <form
        class="row"
        onSubmit={async (event) => {
          event.preventDefault();
          const ok = await action.run(async () => {
            await call(
              api.POST('/console/api/orgs/{org}/service-accounts', {
                params: { path: { org: props.org } },
                body: { name: name.trim() },
              }),
            );
          });
          if (ok) {
            setName('');
            props.onAdded(name.trim());
          }
        }}
      >
        <TextField
          id="sa-name"
          label="Service account name"
          value={name}
          onValue={setName}
          input={{ required: true, maxLength: 200, placeholder: 'ci' }}
        />
        <button type="submit" disabled={action.busy}>
          Add service account
        </button>
      </form>
      <ErrorText message={action.error} />
    </>
  );
}

export function ServiceAccounts({
  org,
  knownModels,
  spent,
  onCreated,
}: {
  org: string;
  knownModels: ModelChoice[];
  spent: Map<string, number>;
  onCreated: (created: Created) => void;
}) {
  const accounts = useLoad(
    () => call(api.GET('/console/api/orgs/{org}/service-accounts', { params: { path: { org } } })),
    [org],
  );
  const [notice, setNotice] = useState<string>();
  const changed = (message: string) => {
    setNotice(message);
    accounts.reload();
  };
  return (
    <section aria-labelledby="service-accounts">
      <h2 id="service-accounts">Service accounts</h2>
      <p class="muted">
        Non-human members with their own keys, usage and budget: CI jobs, bots, integrations.
      </p>
      <Notice message={notice} />
      <NewServiceAccount
        org={org}
        onAdded={(name) => {
          setNotice(`Service account ${name} added.`);
          accounts.reload();
        }}
      />
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
                  onChanged={changed}
                />
              ))}
            </>
          )
        }
      </Loading>
    </section>
  );
}
