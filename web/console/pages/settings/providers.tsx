import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { describedBy, FieldError, FormEnd, useFormAction } from '../../field-errors';
import { DataTable } from '../../table';
import { ConfirmButton, Notice } from '../../ui';

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
  return (
    <section class="panel" aria-labelledby="providers">
      <h2 id="providers">Providers and models</h2>
      <Notice message={saved} />
      <DataTable
        rows={Object.entries(props.providers)}
        rowKey={([id]) => id}
        empty="No provider is configured for this workspace."
        columns={[
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
        ]}
        action={
          props.editable
            ? ([id, provider]) => {
                const name = text(provider.name) || id;
                return (
                  <>
                    <button
                      type="button"
                      class="secondary"
                      aria-label={`Edit ${name}`}
                      onClick={() => {
                        setSaved(undefined);
                        setIsNew(false);
                        setEditing(draftOf(id, provider));
                      }}
                    >
                      Edit
                    </button>{' '}
                    <ConfirmButton
                      label="Delete"
                      ariaLabel={`Delete ${name}`}
                      question={`Delete ${name} and its models?`}
                      confirm="Yes, delete"
                      onConfirm={() => {
                        const rest = { ...props.providers };
                        delete rest[id];
                        return save(rest, `${name} was deleted.`);
                      }}
                    />
                  </>
                );
              }
            : undefined
        }
        actionHeader="Actions"
      />
      {props.editable && !editing ? (
        <button
          type="button"
          onClick={() => {
            setSaved(undefined);
            setIsNew(true);
            setEditing(draftOf('', undefined));
          }}
        >
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

function ProviderForm(props: {
  draft: Draft;
  isNew: boolean;
  onCancel: () => void;
  onSave: (id: string, entry: Json) => Promise<unknown>;
}) {
  const [draft, setDraft] = useState(props.draft);
  const base = `providers.${draft.id}`;
  const modelPaths = draft.models.map((model) => `${base}.models.${model.id}`);
  const form = useFormAction([
    `providers.${draft.id}`,
    `${base}.name`,
    `${base}.package`,
    `${base}.settings.baseURL`,
    `${base}.env`,
    `${base}.settings.apiKey`,
    `${base}.models`,
    ...modelPaths,
  ]);
  const set = (change: Partial<Draft>) => setDraft({ ...draft, ...change });
  const setModel = (index: number, change: Partial<ModelRow>) =>
    set({ models: draft.models.map((model, i) => (i === index ? { ...model, ...change } : model)) });

  const submit = async (event: Event) => {
    event.preventDefault();
    const id = draft.id.trim();
    if (!/^[a-z0-9][a-z0-9._-]{0,63}$/.test(id)) {
      return form.refuse(
        `providers.${id}`,
        'Give the provider an id of lowercase letters, digits, dots, dashes or underscores, e.g. team.',
      );
    }
    const models: Record<string, Json> = {};
    for (const model of draft.models) {
      const modelID = model.id.trim();
      if (!modelID) continue;
      const at = `${base}.models.${modelID}`;
      const [input, output] = [number(model.input, false), number(model.output, false)];
      const [context, limitOutput] = [number(model.context, true), number(model.limitOutput, true)];
      if (input === null || output === null)
        return form.refuse(at, `Prices of ${modelID} are dollars per million tokens, e.g. 2.5.`);
      if ((input === undefined) !== (output === undefined))
        return form.refuse(at, `Give ${modelID} both an input and an output price, or neither.`);
      if (context === null || limitOutput === null)
        return form.refuse(at, `Limits of ${modelID} are whole numbers of tokens, e.g. 200000.`);
      models[modelID] = {
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
    }
    if (Object.keys(models).length === 0) return form.refuse(`${base}.models`, 'Name at least one model.');
    const entry: Json = {
      name: draft.name.trim() || id,
      package: draft.package,
      env: [draft.env.trim()],
      settings: { baseURL: draft.baseURL.trim(), apiKey: `{env:${draft.env.trim()}}` },
      models,
    };
    await form.run(() => props.onSave(id, entry));
  };

  const input = (
    id: string,
    path: string,
    label: string,
    value: string,
    change: (v: string) => void,
    extra = {},
  ) => (
    <div>
      <label for={id}>{label}</label>
      <input
        id={id}
        type="text"
        value={value}
        onInput={(e) => change(e.currentTarget.value)}
        {...describedBy(id, form.at(path))}
        {...extra}
      />
      <FieldError id={id} message={form.at(path)} />
    </div>
  );

  return (
    <form
      class="provider-form"
      noValidate
      onSubmit={(event) => void submit(event)}
      aria-labelledby="provider-form-title"
    >
      <h3 id="provider-form-title">{props.isNew ? 'Add a provider' : `Edit ${draft.name || draft.id}`}</h3>
      <div class="row">
        {props.isNew ? input('prov-id', `providers.${draft.id}`, 'Id', draft.id, (id) => set({ id })) : null}
        {input('prov-name', `${base}.name`, 'Name', draft.name, (name) => set({ name }))}
        <div>
          <label for="prov-package">API</label>
          <select
            id="prov-package"
            value={draft.package}
            onChange={(e) => set({ package: e.currentTarget.value })}
          >
            {PACKAGES.some(([value]) => value === draft.package) ? null : (
              <option value={draft.package}>{draft.package}</option>
            )}
            {PACKAGES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
          <FieldError id="prov-package" message={form.at(`${base}.package`)} />
        </div>
      </div>
      <div class="row">
        {input(
          'prov-baseURL',
          `${base}.settings.baseURL`,
          'Base URL',
          draft.baseURL,
          (baseURL) => set({ baseURL }),
          {
            type: 'url',
            placeholder: 'https://api.example.com/v1',
          },
        )}
        {input('prov-env', `${base}.env`, 'Key from the environment variable', draft.env, (env) =>
          set({ env }),
        )}
      </div>
      <fieldset>
        <legend>Models (prices in dollars per million tokens)</legend>
        {draft.models.map((model, index) => {
          const path = `${base}.models.${model.id.trim()}`;
          const rowId = `prov-model-${index}`;
          const message = model.id.trim() ? form.at(path) : undefined;
          const field = (key: keyof ModelRow, label: string, size = 8) => (
            <div>
              <label for={`${rowId}-${key}`}>{label}</label>
              <input
                id={`${rowId}-${key}`}
                type="text"
                inputMode={key === 'id' || key === 'name' ? undefined : 'decimal'}
                size={size}
                value={model[key] as string}
                onInput={(e) => setModel(index, { [key]: e.currentTarget.value })}
                {...describedBy(rowId, message)}
              />
            </div>
          );
          return (
            <div key={index} class="model-row" role="group" aria-label={`Model ${index + 1}`}>
              <div class="row">
                {field('id', 'Model id', 18)}
                {field('name', 'Name', 14)}
                {field('input', 'Input $')}
                {field('output', 'Output $')}
                {field('context', 'Context limit', 9)}
                {field('limitOutput', 'Output limit', 9)}
                <button
                  type="button"
                  class="secondary"
                  aria-label={`Remove model ${index + 1}`}
                  onClick={() => set({ models: draft.models.filter((_, i) => i !== index) })}
                >
                  Remove
                </button>
              </div>
              <FieldError id={rowId} message={message} />
            </div>
          );
        })}
        <FieldError id="prov-models" message={form.at(`${base}.models`)} />
        <button
          type="button"
          class="secondary"
          onClick={() => set({ models: [...draft.models, emptyModel()] })}
        >
          Add a model
        </button>
      </fieldset>
      <FormEnd form={form} submit="Save provider" onCancel={props.onCancel} />
    </form>
  );
}
