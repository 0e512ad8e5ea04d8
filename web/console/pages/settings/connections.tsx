import { useState } from 'preact/hooks';
import { api, call, day, type Schemas } from '../../api';
import { describedBy, FieldError, FormEnd, useFormAction } from '../../field-errors';
import { LoadedTable } from '../../table';
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

/** The workspace's own provider accounts: a table; add, edit (prices too) and rotate the key in one form; delete. */
export function Connections({ org }: { org: string }) {
  const list = useLoad(
    () => call(api.GET('/console/api/orgs/{org}/connections', { params: { path: { org } } })),
    [org],
  );
  const [editing, setEditing] = useState<Connection | 'new' | null>(null);
  const [notice, setNotice] = useState<string>();
  const action = useAction();
  return (
    <section class="panel" aria-labelledby="connections">
      <h2 id="connections">Bring-your-own-key connections</h2>
      <p class="muted small">
        A provider account of the workspace. Its credential is write-only: only its last four characters are
        ever shown.
      </p>
      <Notice message={notice} />
      <LoadedTable
        state={list}
        rowKey={(connection) => connection.id}
        empty="No connection yet."
        columns={[
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
        ]}
        action={(connection) => (
          <>
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
  const form = useFormAction([
    'name',
    'base_url',
    'schema',
    'auth',
    'auth.credential',
    'models',
    ...models.map((m) => `models.${m.id.trim()}`),
  ]);
  const setModel = (index: number, change: Partial<ModelRow>) =>
    setModels(models.map((model, i) => (i === index ? { ...model, ...change } : model)));
  const title = existing ? `Edit ${existing.name}` : 'Add a connection';

  const submit = async (event: Event) => {
    event.preventDefault();
    const entries: Record<string, ModelEntry> = {};
    for (const model of models) {
      const id = model.id.trim();
      if (!id) continue;
      const [input, output] = [price(model.input), price(model.output)];
      if ([input, output].some((value) => value !== undefined && (!Number.isFinite(value) || value < 0)))
        return form.refuse(`models.${id}`, `Prices of ${id} are dollars per million tokens, e.g. 2.5.`);
      if ((input === undefined) !== (output === undefined))
        return form.refuse(`models.${id}`, `Give ${id} both an input and an output price, or neither.`);
      entries[id] = {
        name: model.name.trim() || id,
        ...(input !== undefined && output !== undefined ? { prices: { input, output } } : {}),
        ...(model.kind ? { kind: model.kind } : {}),
      };
    }
    if (Object.keys(entries).length === 0) return form.refuse('models', 'Name at least one model.');
    if (!existing && !credential) return form.refuse('auth.credential', 'Enter the provider’s API key.');
    const ok = await form.run(() =>
      existing
        ? call(
            api.PATCH('/console/api/orgs/{org}/connections/{id}', {
              params: { path: { org: props.org, id: existing.id } },
              body: {
                name: name.trim(),
                base_url: baseUrl.trim(),
                schema,
                models: entries,
                ...(credential ? { auth: { credential } } : {}),
              },
            }),
          )
        : call(
            api.POST('/console/api/orgs/{org}/connections', {
              params: { path: { org: props.org } },
              body: {
                name: name.trim(),
                base_url: baseUrl.trim(),
                schema,
                auth: { mode: 'bearer', credential },
                models: entries,
              },
            }),
          ),
    );
    if (ok) {
      const rotated = existing && credential ? ' Its new key is in use; the old one is gone.' : '';
      props.onSaved(`${name.trim()} was saved.${rotated}`);
    }
  };

  const text = (
    id: string,
    path: string,
    label: string,
    value: string,
    change: (v: string) => void,
    type = 'text',
  ) => (
    <div>
      <label for={id}>{label}</label>
      <input
        id={id}
        type={type}
        value={value}
        autoComplete={type === 'password' ? 'off' : undefined}
        onInput={(e) => change(e.currentTarget.value)}
        {...describedBy(id, form.at(path))}
      />
      <FieldError id={id} message={form.at(path)} />
    </div>
  );

  return (
    <form
      noValidate
      class="provider-form"
      aria-labelledby="connection-form-title"
      onSubmit={(e) => void submit(e)}
    >
      <h3 id="connection-form-title">{title}</h3>
      <div class="row">
        {text('conn-name', 'name', 'Name', name, setName)}
        {text('conn-base_url', 'base_url', 'Base URL', baseUrl, setBaseUrl, 'url')}
        <div>
          <label for="conn-schema">API</label>
          <select
            id="conn-schema"
            value={schema}
            onChange={(e) => setSchema(e.currentTarget.value as Schema)}
          >
            {SCHEMAS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        {text(
          'conn-credential',
          'auth.credential',
          existing
            ? `New API key (empty keeps …${existing.auth.credential_last4 ?? 'the current one'})`
            : 'API key (write-only)',
          credential,
          setCredential,
          'password',
        )}
      </div>
      <fieldset>
        <legend>Models (prices in dollars per million tokens)</legend>
        {models.map((model, index) => {
          const rowId = `conn-model-${index}`;
          const message = model.id.trim() ? form.at(`models.${model.id.trim()}`) : undefined;
          const field = (key: Exclude<keyof ModelRow, 'kind'>, label: string, size: number) => (
            <div>
              <label for={`${rowId}-${key}`}>{label}</label>
              <input
                id={`${rowId}-${key}`}
                type="text"
                size={size}
                value={model[key]}
                onInput={(e) => setModel(index, { [key]: e.currentTarget.value })}
                {...describedBy(rowId, message)}
              />
            </div>
          );
          return (
            <div key={index} class="model-row" role="group" aria-label={`Connection model ${index + 1}`}>
              <div class="row">
                {field('id', 'Model id', 18)}
                {field('name', 'Name', 14)}
                {field('input', 'Input $', 8)}
                {field('output', 'Output $', 8)}
                <div>
                  <label for={`${rowId}-kind`}>Used for</label>
                  <select
                    id={`${rowId}-kind`}
                    value={model.kind}
                    onChange={(e) => setModel(index, { kind: e.currentTarget.value as Kind })}
                  >
                    {KINDS.map(([value, label]) => (
                      <option key={value} value={value}>
                        {label}
                      </option>
                    ))}
                  </select>
                </div>
                <button
                  type="button"
                  class="secondary"
                  aria-label={`Remove connection model ${index + 1}`}
                  onClick={() => setModels(models.filter((_, i) => i !== index))}
                >
                  Remove
                </button>
              </div>
              <FieldError id={rowId} message={message} />
            </div>
          );
        })}
        <FieldError id="conn-models" message={form.at('models')} />
        <button type="button" class="secondary" onClick={() => setModels([...models, emptyRow()])}>
          Add a model
        </button>
      </fieldset>
      <FormEnd
        form={form}
        submit={existing ? 'Save connection' : 'Add connection'}
        onCancel={props.onCancel}
      />
    </form>
  );
}
