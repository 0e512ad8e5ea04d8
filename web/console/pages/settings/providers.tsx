import type { ComponentChildren, JSX } from 'preact';
import { useState } from 'preact/hooks';
import { FormEnd, SelectField, TextField, useFormAction } from '../../field-errors';
import { type Column, DataTable } from '../../table';
import { ConfirmButton, Notice } from '../../ui';
import { type ModelRowParts, ModelRows } from './model-rows';

type Json = Record<string, unknown>;
export type Providers = Record<string, Json>;

const PACKAGES = [
  ['aisdk:@ai-sdk/openai-compatible', 'OpenAI-compatible'],
  ['aisdk:@ai-sdk/openai', 'OpenAI'],
  ['aisdk:@ai-sdk/anthropic', 'Anthropic'],
] as const;

interface ModelRow {
  id: string;
  name: string;
  input: string;
  output: string;
  context: string;
  limitOutput: string;
  /** What the form does not show (variants, …), kept as it was. */
  rest: Json;
}

interface Draft {
  id: string;
  name: string;
  package: string;
  baseURL: string;
  env: string;
  models: ModelRow[];
}

const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));

function draftOf(id: string, provider: Json | undefined): Draft {
  const settings = (provider?.settings ?? {}) as Json;
  const models = Object.entries((provider?.models ?? {}) as Record<string, Json>).map(([modelID, model]) => {
    const { name, cost, limit, ...rest } = model;
    const c = (cost ?? {}) as Json;
    const l = (limit ?? {}) as Json;
    return {
      id: modelID,
      name: text(name),
      input: text(c.input),
      output: text(c.output),
      context: text(l.context),
      limitOutput: text(l.output),
      rest,
    };
  });
  return {
    id,
    name: text(provider?.name),
    package: text(provider?.package) || PACKAGES[0][0],
    baseURL: text(settings.baseURL),
    env: ((provider?.env as string[] | undefined) ?? [])[0] ?? 'OUTPOST_API_KEY',
    models: models.length ? models : [emptyModel()],
  };
}

const emptyModel = (): ModelRow => ({
  id: '',
  name: '',
  input: '',
  output: '',
  context: '',
  limitOutput: '',
  rest: {},
});

/** A price or a limit as typed: empty, or a number (a whole one for limits). */
function number(value: string, whole: boolean): number | undefined | null {
  if (value.trim() === '') return undefined;
  const parsed = Number(value.trim());
  if (!Number.isFinite(parsed) || parsed < 0 || (whole && !Number.isInteger(parsed))) return null;
  return parsed;
}

const COLUMNS: Array<Column<[string, Json]>> = [
  {
    header: 'Provider',
    cell: ([id, provider]) => (
      <>
        {text(provider.name) || id} <span class="muted small">{id}</span>
      </>
    ),
  },
  {
    header: 'Base URL',
    cell: ([, provider]) => text((provider.settings as Json | undefined)?.baseURL) || '—',
  },
  {
    header: 'Models',
    cell: ([, provider]) =>
      Object.entries((provider.models ?? {}) as Record<string, Json>)
        .map(([model, info]) => text(info.name) || model)
        .join(', '),
  },
];

/** Edit and Delete, for the row of a provider. */
function ProviderActions(props: { name: string; onEdit: () => void; onDelete: () => Promise<unknown> }) {
  return (
    <>
      <button type="button" class="secondary" aria-label={`Edit ${props.name}`} onClick={props.onEdit}>
        Edit
      </button>{' '}
      <ConfirmButton
        label="Delete"
        ariaLabel={`Delete ${props.name}`}
        question={`Delete ${props.name} and its models?`}
        confirm="Yes, delete"
        onConfirm={props.onDelete}
      />
    </>
  );
}

/** The workspace's providers: a table, a form to add or edit one (models with prices and limits), and delete. */
export function ProvidersSection(props: {
  providers: Providers;
  editable: boolean;
  onSave: (providers: Providers) => Promise<unknown>;
  /** The JSON view, for what the form does not show (headers, variants, body). */
  advanced?: ComponentChildren;
}) {
  const [editing, setEditing] = useState<Draft | null>(null);
  const [isNew, setIsNew] = useState(false);
  const [saved, setSaved] = useState<string>();
  const save = async (providers: Providers, message: string) => {
    await props.onSave(providers);
    setSaved(message);
  };
  const edit = (draft: Draft, fresh: boolean) => {
    setSaved(undefined);
    setIsNew(fresh);
    setEditing(draft);
  };
  const remove = (id: string, name: string) => {
    const rest = { ...props.providers };
    delete rest[id];
    return save(rest, `${name} was deleted.`);
  };
  return (
    <section class="panel" aria-labelledby="providers">
      <h2 id="providers">Providers and models</h2>
      <Notice message={saved} />
      <DataTable
        rows={Object.entries(props.providers)}
        rowKey={([id]) => id}
        empty="No provider is configured for this workspace."
        columns={COLUMNS}
        action={
          props.editable
            ? ([id, provider]) => (
                <ProviderActions
                  name={text(provider.name) || id}
                  onEdit={() => edit(draftOf(id, provider), false)}
                  onDelete={() => remove(id, text(provider.name) || id)}
                />
              )
            : undefined
        }
        actionHeader="Actions"
      />
      {props.editable && !editing ? (
        <button type="button" onClick={() => edit(draftOf('', undefined), true)}>
          Add a provider
        </button>
      ) : null}
      {editing ? (
        <ProviderForm
          key={editing.id || 'new'}
          draft={editing}
          isNew={isNew}
          onCancel={() => setEditing(null)}
          onSave={async (id, entry) => {
            await save({ ...props.providers, [id]: entry }, `${text(entry.name) || id} was saved.`);
            setEditing(null);
          }}
        />
      ) : null}
      {props.advanced}
    </section>
  );
}

type Refusal = { path: string; message: string };

/** A model of the form as the config has it, or what is wrong with it (`at`: its path). */
function modelEntry(model: ModelRow, at: string): { entry: Json } | Refusal {
  const modelID = model.id.trim();
  const [input, output] = [number(model.input, false), number(model.output, false)];
  const [context, limitOutput] = [number(model.context, true), number(model.limitOutput, true)];
  if (input === null || output === null)
    return { path: at, message: `Prices of ${modelID} are dollars per million tokens, e.g. 2.5.` };
  if ((input === undefined) !== (output === undefined))
    return { path: at, message: `Give ${modelID} both an input and an output price, or neither.` };
  if (context === null || limitOutput === null)
    return { path: at, message: `Limits of ${modelID} are whole numbers of tokens, e.g. 200000.` };
  const entry = {
    ...model.rest,
    name: model.name.trim() || modelID,
    ...(input !== undefined && output !== undefined ? { cost: { input, output } } : {}),
    ...(context !== undefined || limitOutput !== undefined
      ? {
          limit: {
            ...(context !== undefined ? { context } : {}),
            ...(limitOutput !== undefined ? { output: limitOutput } : {}),
          },
        }
      : {}),
  };
  return { entry };
}

/** The provider of the form as the config has it, or what is wrong with it. */
function providerEntry(draft: Draft): { id: string; entry: Json } | Refusal {
  const id = draft.id.trim();
  const base = `providers.${draft.id}`;
  if (!/^[a-z0-9][a-z0-9._-]{0,63}$/.test(id)) {
    return {
      path: `providers.${id}`,
      message:
        'Give the provider an id of lowercase letters, digits, dots, dashes or underscores, e.g. team.',
    };
  }
  const models: Record<string, Json> = {};
  for (const model of draft.models) {
    const modelID = model.id.trim();
    if (!modelID) continue;
    const checked = modelEntry(model, `${base}.models.${modelID}`);
    if (!('entry' in checked)) return checked;
    models[modelID] = checked.entry;
  }
  if (Object.keys(models).length === 0)
    return { path: `${base}.models`, message: 'Name at least one model.' };
  const entry: Json = {
    name: draft.name.trim() || id,
    package: draft.package,
    env: [draft.env.trim()],
    settings: { baseURL: draft.baseURL.trim(), apiKey: `{env:${draft.env.trim()}}` },
    models,
  };
  return { id, entry };
}

/** The inputs of one model: id, name, prices and limits. */
function providerModelFields(_model: ModelRow, { field }: ModelRowParts<ModelRow>) {
  return (
    <>
      {field('id', 'Model id', 18)}
      {field('name', 'Name', 14)}
      {field('input', 'Input $', 8, true)}
      {field('output', 'Output $', 8, true)}
      {field('context', 'Context limit', 9, true)}
      {field('limitOutput', 'Output limit', 9, true)}
    </>
  );
}

/** The paths of the config that the form shows a message next to. */
function providerPaths(draft: Draft): string[] {
  const base = `providers.${draft.id}`;
  return [
    base,
    `${base}.name`,
    `${base}.package`,
    `${base}.settings.baseURL`,
    `${base}.env`,
    `${base}.settings.apiKey`,
    `${base}.models`,
    ...draft.models.map((model) => `${base}.models.${model.id}`),
  ];
}

function ProviderForm(props: {
  draft: Draft;
  isNew: boolean;
  onCancel: () => void;
  onSave: (id: string, entry: Json) => Promise<unknown>;
}) {
  const [draft, setDraft] = useState(props.draft);
  const base = `providers.${draft.id}`;
  const form = useFormAction(providerPaths(draft));
  const set = (change: Partial<Draft>) => setDraft({ ...draft, ...change });
  const text = (
    key: 'id' | 'name' | 'baseURL' | 'env',
    label: string,
    path: string,
    input?: JSX.IntrinsicElements['input'],
  ) => (
    <TextField
      id={`prov-${key}`}
      label={label}
      value={draft[key]}
      onValue={(value) => set({ [key]: value })}
      message={form.at(path)}
      input={input}
    />
  );

  const submit = async (event: Event) => {
    event.preventDefault();
    const checked = providerEntry(draft);
    if (!('entry' in checked)) return form.refuse(checked.path, checked.message);
    await form.run(() => props.onSave(checked.id, checked.entry));
  };

  return (
    <form
      class="provider-form"
      noValidate
      onSubmit={(event) => void submit(event)}
      aria-labelledby="provider-form-title"
    >
      <h3 id="provider-form-title">{props.isNew ? 'Add a provider' : `Edit ${draft.name || draft.id}`}</h3>
      <div class="row">
        {props.isNew ? text('id', 'Id', `providers.${draft.id}`) : null}
        {text('name', 'Name', `${base}.name`)}
        <SelectField
          id="prov-package"
          label="API"
          value={draft.package}
          // A package the form does not know stays as the config names it.
          options={
            PACKAGES.some(([value]) => value === draft.package)
              ? PACKAGES
              : [[draft.package, draft.package], ...PACKAGES]
          }
          onValue={(value) => set({ package: value })}
          message={form.at(`${base}.package`)}
        />
      </div>
      <div class="row">
        {text('baseURL', 'Base URL', `${base}.settings.baseURL`, {
          type: 'url',
          placeholder: 'https://api.example.com/v1',
        })}
        {text('env', 'Key from the environment variable', `${base}.env`)}
      </div>
      <ModelRows
        models={draft.models}
        onChange={(models) => set({ models })}
        empty={emptyModel}
        idPrefix="prov-model"
        label="Model"
        messageOf={(model) => form.at(`${base}.models.${model.id.trim()}`)}
        listMessage={form.at(`${base}.models`)}
        fields={providerModelFields}
      />
      <FormEnd form={form} submit="Save provider" onCancel={props.onCancel} />
    </form>
  );
}
