import { useState } from 'preact/hooks';
import { api, call, day, microToNumber, type Schemas, when } from '../api';
import { TextField } from '../field-errors';
import { type Column, DataTable } from '../table';
import {
  type Action,
  type ApiCall,
  ConfirmButton,
  deleteThrough,
  ErrorText,
  Loading,
  useAction,
  useLoad,
} from '../ui';
import { controlsSummary, type KeyControls, KeyControlsForm } from './key-controls';
import type { ModelChoice } from './model-picker';

export type Key = Schemas['KeyDto'];
export type Token = Schemas['TokenDto'];
/** A key or user token just made: shown once, with how to use it. */
export type Created = { title: string; secret: string; use: 'inference' | 'console' };

export const PERMISSIONS = { inference: 'Inference only', all: 'All' } as const;

/** The end of the chosen day (UTC), as the API takes an expiry. */
const endOfDay = (date: string) => (date ? `${date}T23:59:59.000Z` : undefined);

/** Each key's spend this month (dollars), from the usage report; empty for those who may not read it. */
export function useKeySpend(org: string, admin: boolean): Map<string, number> {
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

/** The columns of keys and user tokens; with `spent` (keys), their controls too. */
function credentialColumns(
  spent?: Map<string, number>,
  choices: ModelChoice[] = [],
): Array<Column<Key | Token> | false> {
  return [
    { header: 'Name', cell: (item) => item.name },
    {
      header: 'Permission',
      cell: (item) => ('permission' in item ? PERMISSIONS[item.permission] : 'As you'),
    },
    {
      header: 'Key',
      cell: (item) => (
        <code>
          {item.prefix}…{item.last4}
        </code>
      ),
    },
    { header: 'Created', cell: (item) => day(item.created_at) },
    { header: 'Expires', cell: (item) => day(item.expires_at) },
    { header: 'Last used', cell: (item) => when(item.last_used_at) },
    { header: 'Status', cell: (item) => item.status },
    !!spent && {
      header: 'Controls',
      cell: (item) => ('rate_limit' in item ? controlsSummary(item, spent.get(item.id), choices) : null),
    },
  ];
}

export function CredentialRows(props: {
  items: Array<Key | Token>;
  caption: string;
  empty?: string;
  onRevoke: (item: Key | Token) => Promise<unknown>;
  /** Keys (not user tokens) have controls: shown in a column, and changed here when given. */
  controls?: {
    knownModels: ModelChoice[];
    spent: Map<string, number>;
    onSave: (key: Key, controls: KeyControls) => Promise<unknown>;
  };
}) {
  const [editing, setEditing] = useState<string>();
  const { controls } = props;
  const edited = props.items.find((item): item is Key => item.id === editing && 'rate_limit' in item);
  return (
    <>
      <DataTable
        caption={props.caption}
        rows={props.items}
        rowKey={(item) => item.id}
        empty={props.empty ?? 'No keys yet.'}
        columns={credentialColumns(controls?.spent, controls?.knownModels)}
        actionClass="actions"
        action={(item) => (
          <>
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
          </>
        )}
      />
      {controls && edited ? (
        <KeyControlsForm
          // Opened again when the models to pick from arrive, so what is stored shows as picked.
          key={`${edited.id}-${controls.knownModels.length}`}
          keyItem={edited}
          knownModels={controls.knownModels}
          onSave={(changes) => controls.onSave(edited, changes)}
          onClose={() => setEditing(undefined)}
        />
      ) : null}
    </>
  );
}

/** Keys as they load (`keys`), with their controls: `patch` changes one, `remove` revokes it; then they load again. */
export function KeyRows(props: {
  keys: { data?: Key[]; error?: string; loading: boolean; reload: () => void };
  caption: string;
  knownModels: ModelChoice[];
  spent: Map<string, number>;
  action: Action;
  patch: (id: string, changes: KeyControls) => ApiCall;
  remove: (id: string) => ApiCall;
}) {
  const { keys } = props;
  return (
    <Loading state={keys}>
      {(list) => (
        <CredentialRows
          items={list}
          caption={props.caption}
          controls={{
            knownModels: props.knownModels,
            spent: props.spent,
            onSave: async (key, changes) => {
              await call(props.patch(key.id, changes));
              keys.reload();
            },
          }}
          onRevoke={(key) => deleteThrough(props.action, () => props.remove(key.id), keys.reload)}
        />
      )}
    </Loading>
  );
}

/** Name, permission (unless a user token) and an optional expiry date. */
export function NewCredentialForm(props: {
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
        <TextField
          id={id('name')}
          label="Key name"
          value={name}
          onValue={setName}
          input={{ required: true, maxLength: 200 }}
        />
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
