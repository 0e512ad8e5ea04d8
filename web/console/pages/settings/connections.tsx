import { useState } from 'preact/hooks';
import { api, call, day, type Schemas, wordsOf } from '../../api';
import { FormEnd, SelectField, TextField, useFormAction } from '../../field-errors';
import { type Column, LoadedTable } from '../../table';
import { type ModelRowParts, ModelRows } from './model-rows';
import { DeleteButton, ErrorText, Notice, useAction, useLoad } from '../../ui';

type Connection = Schemas['ConnectionDto'];
type Schema = Connection['schema'];
type Kind = '' | 'chat' | 'embedding';
type ModelEntry = { name?: string; prices?: { input?: number; output?: number }; kind?: Kind };

interface ModelRow {
  id: string;
  name: string;
  input: string;
  output: string;
  /** '' for both chat and embeddings. */
  kind: Kind;
}

const KINDS: Array<[Kind, string]> = [
  ['', 'Chat and embeddings'],
  ['chat', 'Chat only'],
  ['embedding', 'Embeddings only'],
];

const SCHEMAS: Array<[Schema, string]> = [
  ['openai-chat', 'OpenAI chat completions'],
  ['openai-responses', 'OpenAI Responses'],
  ['anthropic', 'Anthropic messages'],
];

const rowsOf = (models: Record<string, unknown>): ModelRow[] =>
  Object.entries(models as Record<string, ModelEntry>).map(([id, model]) => ({
    id,
    name: model.name ?? '',
    input: model.prices?.input === undefined ? '' : String(model.prices.input),
    output: model.prices?.output === undefined ? '' : String(model.prices.output),
    kind: model.kind ?? '',
  }));

const emptyRow = (): ModelRow => ({ id: '', name: '', input: '', output: '', kind: '' });

const price = (value: string) => (value.trim() === '' ? undefined : Number(value.trim()));

const COLUMNS: Array<Column<Connection>> = [
  {
    header: 'Name',
    cell: (connection) => (
      <>
        {connection.name}
        <div class="muted small">{connection.inference_url}</div>
      </>
    ),
  },
  {
    header: 'API',
    cell: (connection) => (
      <>
        {SCHEMAS.find(([value]) => value === connection.schema)?.[1] ?? connection.schema}
        <div class="muted small">{connection.base_url}</div>
      </>
    ),
  },
  {
    header: 'Models and prices',
    cell: (connection) =>
      rowsOf(connection.models).map((model) => (
        <div key={model.id}>
          {model.name || model.id}
          {model.input && model.output ? (
            <span class="muted small">
              {' '}
              ${model.input} in / ${model.output} out per million tokens
            </span>
          ) : null}
        </div>
      )),
  },
  {
    header: 'Credential',
    cell: (connection) =>
      connection.auth.credential_last4 ? `…${connection.auth.credential_last4}` : 'hidden',
  },
  { header: 'Added', cell: (connection) => day(connection.created_at) },
];

/** "Test" on a connection: one small real call through it; what answered, or why nothing did. */
function useConnectionTest(org: string) {
  const [tested, setTested] = useState<{ ok: boolean; message: string }>();
  const [testing, setTesting] = useState<string>();
  /** One small real call through the connection: what answered, or why nothing did. */
  const test = async (connection: Connection) => {
    setTesting(connection.id);
    setTested(undefined);
    try {
      setTested(
        await call(
          api.POST('/console/api/orgs/{org}/connections/{id}/test', {
            params: { path: { org, id: connection.id } },
            // The route reads no body; a cookie's change carries a JSON one all the same (the CSRF rule).
            body: {} as never,
          }),
        ),
      );
    } catch (failure) {
      setTested({ ok: false, message: wordsOf(failure) });
    } finally {
      setTesting(undefined);
    }
  };
  return { tested, testing, test };
}

function TestButton(props: {
  connection: Connection;
  testing?: string;
  onTest: (connection: Connection) => Promise<void>;
}) {
  return (
    <button
      type="button"
      class="secondary"
      aria-label={`Test connection ${props.connection.name}`}
      disabled={props.testing !== undefined}
      onClick={() => void props.onTest(props.connection)}
    >
      {props.testing === props.connection.id ? 'Testing…' : 'Test'}
    </button>
  );
}

/** The workspace's own provider accounts: a table; add, edit (prices too) and rotate the key in one form; delete. */
export function Connections({ org }: { org: string }) {
  const list = useLoad(
    () => call(api.GET('/console/api/orgs/{org}/connections', { params: { path: { org } } })),
    [org],
  );
  const [editing, setEditing] = useState<Connection | 'new' | null>(null);
  const [notice, setNotice] = useState<string>();
  const { tested, testing, test } = useConnectionTest(org);
  const action = useAction();
  return (
    <section class="panel" aria-labelledby="connections">
      <h2 id="connections">Bring-your-own-key connections</h2>
      <p class="muted small">
        A provider account of the workspace. Its credential is write-only: only its last four characters are
        ever shown.
      </p>
      <Notice message={notice} />
      <p role="status" class={tested ? (tested.ok ? 'notice' : 'error') : 'sr'}>
        {tested?.message}
      </p>
      <LoadedTable
        state={list}
        rowKey={(connection) => connection.id}
        empty="No connection yet."
        columns={COLUMNS}
        action={(connection) => (
          <>
            <TestButton connection={connection} testing={testing} onTest={test} />{' '}
            <button
              type="button"
              class="secondary"
              aria-label={`Edit connection ${connection.name}`}
              onClick={() => {
                setNotice(undefined);
                setEditing(connection);
              }}
            >
              Edit
            </button>{' '}
            <DeleteButton
              label="Delete"
              ariaLabel={`Delete connection ${connection.name}`}
              question={`Delete ${connection.name} and its credential?`}
              action={action}
              request={() =>
                api.DELETE('/console/api/orgs/{org}/connections/{id}', {
                  params: { path: { org, id: connection.id } },
                })
              }
              onDone={list.reload}
            />
          </>
        )}
        actionHeader="Actions"
      />
      <ErrorText message={action.error} />
      {editing === null ? (
        <button type="button" onClick={() => setEditing('new')}>
          Add a connection
        </button>
      ) : (
        <ConnectionForm
          key={editing === 'new' ? 'new' : editing.id}
          org={org}
          connection={editing === 'new' ? undefined : editing}
          onCancel={() => setEditing(null)}
          onSaved={(message) => {
            setEditing(null);
            setNotice(message);
            list.reload();
          }}
        />
      )}
    </section>
  );
}

/** The models of the form as the API takes them, or what is wrong with one (its path and the words). */
function modelEntries(
  models: ModelRow[],
): { entries: Record<string, ModelEntry> } | { path: string; message: string } {
  const entries: Record<string, ModelEntry> = {};
  for (const model of models) {
    const id = model.id.trim();
    if (!id) continue;
    const [input, output] = [price(model.input), price(model.output)];
    if ([input, output].some((value) => value !== undefined && (!Number.isFinite(value) || value < 0)))
      return { path: `models.${id}`, message: `Prices of ${id} are dollars per million tokens, e.g. 2.5.` };
    if ((input === undefined) !== (output === undefined))
      return { path: `models.${id}`, message: `Give ${id} both an input and an output price, or neither.` };
    entries[id] = {
      name: model.name.trim() || id,
      ...(input !== undefined && output !== undefined ? { prices: { input, output } } : {}),
      ...(model.kind ? { kind: model.kind } : {}),
    };
  }
  if (Object.keys(entries).length === 0) return { path: 'models', message: 'Name at least one model.' };
  return { entries };
}

interface ConnectionFields {
  name: string;
  base_url: string;
  schema: Schema;
  credential: string;
  models: Record<string, ModelEntry>;
}

/** Adds the connection, or changes `existing` (its key only when a new one is given). */
function sendConnection(org: string, existing: Connection | undefined, fields: ConnectionFields) {
  const { credential, ...rest } = fields;
  return existing
    ? call(
        api.PATCH('/console/api/orgs/{org}/connections/{id}', {
          params: { path: { org, id: existing.id } },
          body: { ...rest, ...(credential ? { auth: { credential } } : {}) },
        }),
      )
    : call(
        api.POST('/console/api/orgs/{org}/connections', {
          params: { path: { org } },
          body: { ...rest, auth: { mode: 'bearer', credential } },
        }),
      );
}

/** The inputs of one model: id, name, prices and what it is used for. */
function connectionModelFields(model: ModelRow, { field, rowId, change }: ModelRowParts<ModelRow>) {
  return (
    <>
      {field('id', 'Model id', 18)}
      {field('name', 'Name', 14)}
      {field('input', 'Input $', 8)}
      {field('output', 'Output $', 8)}
      <SelectField
        id={`${rowId}-kind`}
        label="Used for"
        value={model.kind}
        options={KINDS}
        onValue={(kind) => change({ kind })}
      />
    </>
  );
}

/** The paths of a connection that the form shows a message next to (and each model's). */
const FORM_PATHS = ['name', 'base_url', 'schema', 'auth', 'auth.credential', 'models'];

function ConnectionForm(props: {
  org: string;
  connection?: Connection;
  onCancel: () => void;
  onSaved: (message: string) => void;
}) {
  const existing = props.connection;
  const [name, setName] = useState(existing?.name ?? '');
  const [baseUrl, setBaseUrl] = useState(existing?.base_url ?? '');
  const [schema, setSchema] = useState<Schema>(existing?.schema ?? 'openai-chat');
  const [credential, setCredential] = useState('');
  const [models, setModels] = useState<ModelRow[]>(existing ? rowsOf(existing.models) : [emptyRow()]);
  const form = useFormAction([...FORM_PATHS, ...models.map((m) => `models.${m.id.trim()}`)]);

  const submit = async (event: Event) => {
    event.preventDefault();
    const checked = modelEntries(models);
    if ('path' in checked) return form.refuse(checked.path, checked.message);
    if (!existing && !credential) return form.refuse('auth.credential', 'Enter the provider’s API key.');
    const fields = { name: name.trim(), base_url: baseUrl.trim(), schema, credential };
    const ok = await form.run(() =>
      sendConnection(props.org, existing, { ...fields, models: checked.entries }),
    );
    if (ok) {
      const rotated = existing && credential ? ' Its new key is in use; the old one is gone.' : '';
      props.onSaved(`${name.trim()} was saved.${rotated}`);
    }
  };

  return (
    <form
      noValidate
      class="provider-form"
      aria-labelledby="connection-form-title"
      onSubmit={(e) => void submit(e)}
    >
      <h3 id="connection-form-title">{existing ? `Edit ${existing.name}` : 'Add a connection'}</h3>
      <div class="row">
        <TextField id="conn-name" label="Name" value={name} onValue={setName} message={form.at('name')} />
        <TextField
          id="conn-base_url"
          label="Base URL"
          value={baseUrl}
          onValue={setBaseUrl}
          message={form.at('base_url')}
          input={{ type: 'url' }}
        />
        <SelectField id="conn-schema" label="API" value={schema} options={SCHEMAS} onValue={setSchema} />
        <TextField
          id="conn-credential"
          label={
            existing
              ? `New API key (empty keeps …${existing.auth.credential_last4 ?? 'the current one'})`
              : 'API key (write-only)'
          }
          value={credential}
          onValue={setCredential}
          message={form.at('auth.credential')}
          input={{ type: 'password', autoComplete: 'off' }}
        />
      </div>
      <ModelRows
        models={models}
        onChange={setModels}
        empty={emptyRow}
        idPrefix="conn-model"
        label="Connection model"
        messageOf={(model) => form.at(`models.${model.id.trim()}`)}
        listMessage={form.at('models')}
        fields={connectionModelFields}
      />
      <FormEnd
        form={form}
        submit={existing ? 'Save connection' : 'Add connection'}
        onCancel={props.onCancel}
      />
    </form>
  );
}
