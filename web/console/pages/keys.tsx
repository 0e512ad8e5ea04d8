import { useState } from 'preact/hooks';
import { api, call, day, inOrg, isAdmin, microToNumber, type Schemas, when } from '../api';
import type { PageProps } from '../main';
import { ConfirmButton, ErrorText, Loading, Notice, ShownOnce, useAction, useLoad } from '../ui';
import { controlsSummary, type KeyControls, KeyControlsForm } from './key-controls';

type Key = Schemas['KeyDto'];
type Token = Schemas['TokenDto'];
type Created = { title: string; secret: string };

const PERMISSIONS = { inference: 'Inference only', all: 'All' } as const;

/** The end of the chosen day (UTC), as the API takes an expiry. */
const endOfDay = (date: string) => (date ? `${date}T23:59:59.000Z` : undefined);

/** The workspace config's models (`provider/model`), a hint for a key's allowed models; none if it cannot be read. */
function useKnownModels(org: string): string[] {
  const config = useLoad(
    () =>
      call(api.GET('/console/api/v2/config', { params: inOrg(org) })).then((document) =>
        Object.entries((document.providers ?? {}) as Record<string, { models?: object }>).flatMap(
          ([provider, entry]) => Object.keys(entry.models ?? {}).map((model) => `${provider}/${model}`),
        ),
      ),
    [org],
  );
  return config.data ?? [];
}

/** Each key's spend this month (dollars), from the usage report; empty for those who may not read it. */
function useKeySpend(org: string, admin: boolean): Map<string, number> {
  const report = useLoad(async () => {
    if (!admin) return new Map<string, number>();
    const from = new Date();
    from.setUTCDate(1);
    from.setUTCHours(0, 0, 0, 0);
    const rows = await call(
      api.GET('/console/api/orgs/{org}/usage', {
        params: { path: { org }, query: { group_by: 'key', from: from.toISOString() } },
      }),
    ).then(
      (page) => page.data,
      () => [],
    );
    return new Map(rows.map((row) => [row.key, microToNumber(row.spent_micro_cents)]));
  }, [org, admin]);
  return report.data ?? new Map();
}

function CredentialRows(props: {
  items: Array<Key | Token>;
  caption: string;
  empty?: string;
  onRevoke: (item: Key | Token) => Promise<unknown>;
  /** Keys (not user tokens) have controls: shown in a column, and changed here when given. */
  controls?: {
    knownModels: string[];
    spent: Map<string, number>;
    onSave: (key: Key, controls: KeyControls) => Promise<unknown>;
  };
}) {
  const [editing, setEditing] = useState<string>();
  if (props.items.length === 0) return <p class="muted">{props.empty ?? 'No keys yet.'}</p>;
  const { controls } = props;
  const edited = props.items.find((item): item is Key => item.id === editing && 'rate_limit' in item);
  return (
    <>
      <div class="scroll">
        <table>
          <caption class="sr">{props.caption}</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Permission</th>
              <th scope="col">Key</th>
              <th scope="col">Created</th>
              <th scope="col">Expires</th>
              <th scope="col">Last used</th>
              <th scope="col">Status</th>
              {controls ? <th scope="col">Controls</th> : null}
              <th scope="col">
                <span class="sr">Action</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {props.items.map((item) => (
              <tr key={item.id}>
                <td data-label="Name">{item.name}</td>
                <td data-label="Permission">
                  {'permission' in item ? PERMISSIONS[item.permission] : 'As you'}
                </td>
                <td data-label="Key">
                  <code>
                    {item.prefix}…{item.last4}
                  </code>
                </td>
                <td data-label="Created">{day(item.created_at)}</td>
                <td data-label="Expires">{day(item.expires_at)}</td>
                <td data-label="Last used">{when(item.last_used_at)}</td>
                <td data-label="Status">{item.status}</td>
                {controls && 'rate_limit' in item ? (
                  <td data-label="Controls">{controlsSummary(item, controls.spent.get(item.id))}</td>
                ) : null}
                <td class="actions">
                  {controls && item.status === 'active' ? (
                    <button
                      type="button"
                      class="secondary"
                      aria-label={`Edit controls of ${item.name}`}
                      aria-expanded={editing === item.id}
                      onClick={() => setEditing(item.id)}
                    >
                      Edit controls
                    </button>
                  ) : null}{' '}
                  {item.status === 'active' ? (
                    <ConfirmButton
                      label="Revoke"
                      ariaLabel={`Revoke ${item.name}`}
                      question={`Revoke ${item.name}? Requests with it stop at once.`}
                      confirm="Yes, revoke"
                      onConfirm={() => props.onRevoke(item)}
                    />
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {controls && edited ? (
        <KeyControlsForm
          key={edited.id}
          keyItem={edited}
          knownModels={controls.knownModels}
          onSave={(changes) => controls.onSave(edited, changes)}
          onClose={() => setEditing(undefined)}
        />
      ) : null}
    </>
  );
}

/** Name, permission (unless a user token) and an optional expiry date. */
function NewCredentialForm(props: {
  idPrefix: string;
  withPermission: boolean;
  submitLabel: string;
  onCreate: (input: {
    name: string;
    permission: 'inference' | 'all';
    expires_at?: string;
  }) => Promise<unknown>;
}) {
  const [name, setName] = useState('');
  const [permission, setPermission] = useState<'inference' | 'all'>('inference');
  const [expires, setExpires] = useState('');
  const action = useAction();
  const id = (field: string) => `${props.idPrefix}-${field}`;
  return (
    <form
      onSubmit={async (event) => {
        event.preventDefault();
        const ok = await action.run(() =>
          props.onCreate({ name: name.trim(), permission, expires_at: endOfDay(expires) }),
        );
        if (ok) {
          setName('');
          setExpires('');
        }
      }}
    >
      <div class="row">
        <div>
          <label for={id('name')}>Key name</label>
          <input
            id={id('name')}
            type="text"
            required
            maxLength={200}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </div>
        {props.withPermission ? (
          <div>
            <label for={id('permission')}>Permission</label>
            <select
              id={id('permission')}
              value={permission}
              onChange={(e) => setPermission(e.currentTarget.value as 'inference' | 'all')}
            >
              <option value="inference">Inference only</option>
              <option value="all">All</option>
            </select>
          </div>
        ) : null}
        <div>
          <label for={id('expires')}>Expires (optional)</label>
          <input
            id={id('expires')}
            type="date"
            value={expires}
            onInput={(e) => setExpires(e.currentTarget.value)}
          />
        </div>
        <button type="submit" disabled={action.busy}>
          {props.submitLabel}
        </button>
      </div>
      <ErrorText message={action.error} />
    </form>
  );
}

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
              action.run(async () => {
                await call(
                  api.DELETE('/console/api/orgs/{org}/service-accounts/{sa}/keys/{id}', {
                    params: { path: { org, sa: account.id, id: key.id } },
                  }),
                );
                keys.reload();
              })
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
        <ConfirmButton
          label="Remove service account"
          ariaLabel={`Remove service account ${account.name}`}
          question={`Remove ${account.name}? This revokes ${active} ${active === 1 ? 'key' : 'keys'}.`}
          confirm="Yes, remove"
          onConfirm={() =>
            action.run(async () => {
              await call(
                api.DELETE('/console/api/orgs/{org}/service-accounts/{sa}', {
                  params: { path: { org, sa: account.id } },
                }),
              );
              props.onRemoved(`${account.name} was removed and its keys revoked.`);
            })
          }
        />
      </p>
      <ErrorText message={action.error} />
    </section>
  );
}

function ServiceAccounts({
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
                action.run(async () => {
                  await call(
                    api.DELETE('/console/api/orgs/{org}/keys/{id}', {
                      params: { path: { org, id: key.id } },
                    }),
                  );
                  personal.reload();
                })
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
                action.run(async () => {
                  await call(api.DELETE('/console/api/tokens/{id}', { params: { path: { id: token.id } } }));
                  tokens.reload();
                })
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
