import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { LabelledInput } from '../../shared/field';
import { ApiError, client, ok } from '../api';
import { shortPath } from '../format';
import { useKnownLocations } from '../locations';
import { type NamedModel, useNamedModels } from '../models';
import { fieldWords, formWords } from '../../shared/field-words';
import { ConsoleLink } from './ConsoleLink';

type Kind = 'openai' | 'anthropic' | 'openai-compatible';

/** What the form starts with for each kind: a provider id and a model to offer. */
const DEFAULTS: Record<Kind, { label: string; id: string; models: string }> = {
  openai: { label: 'OpenAI', id: 'openai', models: 'gpt-4.1' },
  anthropic: { label: 'Anthropic', id: 'anthropic', models: 'claude-sonnet-4-5' },
  'openai-compatible': { label: 'OpenAI-compatible (base URL)', id: 'local', models: '' },
};

/**
 * The models each known location sees (its config's providers), a form to add a provider for every location (its
 * key kept in the data folder), and, as the other way to get models, signing in to a console.
 */
export function ModelsView() {
  const known = useKnownLocations();
  const [tick, setTick] = useState(0);
  return (
    <section class="models-page" aria-labelledby="models-title">
      <h1 id="models-title">Models</h1>
      <p class="muted">
        The agent needs a model. Add a provider with your own key below, or sign in to a console to use your
        workspace’s models.
      </p>
      <Locations directories={known} tick={tick} />
      <AddProvider onAdded={() => setTick((t) => t + 1)} />
      <div class="panel">
        <h2>Or sign in to a console</h2>
        <ConsoleLink />
      </div>
    </section>
  );
}

function Locations({ directories, tick }: { directories: string[]; tick: number }) {
  if (directories.length === 0) return <p class="muted">Loading the locations…</p>;
  return (
    <div class="panel">
      <h2>What each location sees</h2>
      {directories.map((directory) => (
        <LocationModels key={directory} directory={directory} tick={tick} />
      ))}
    </div>
  );
}

function LocationModels({ directory, tick }: { directory: string; tick: number }) {
  const { models, error } = useNamedModels(directory, tick);
  const byProvider = new Map<string, NamedModel[]>();
  for (const model of models ?? [])
    byProvider.set(model.providerID, [...(byProvider.get(model.providerID) ?? []), model]);
  return (
    <section class="location-models" aria-label={`Models in ${directory}`}>
      <h3 title={directory}>{shortPath(directory)}</h3>
      {error ? (
        <p class="error">{error}</p>
      ) : models === null ? (
        <p class="muted">Loading…</p>
      ) : models.length === 0 ? (
        <p class="muted" data-testid="no-models">
          No model here yet: add a provider below, or sign in to a console.
        </p>
      ) : (
        <ul>
          {[...byProvider].map(([provider, list]) => (
            <li key={provider}>
              <strong>{list[0].providerName}</strong>: {list.map((m) => m.name).join(', ')}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

type FieldError = { message: string; field?: string };
const FIELDS = ['id', 'baseURL', 'apiKey', 'models'];

/** The form, as typed. */
interface Draft {
  kind: Kind;
  id: string;
  baseURL: string;
  apiKey: string;
  models: string;
}

/** Adds the provider the form describes; the server keeps its key. */
function addProvider(draft: Draft) {
  const { kind, baseURL } = draft;
  return ok(
    client.POST('/api/provider', {
      body: {
        kind,
        id: draft.id.trim(),
        apiKey: draft.apiKey,
        models: draft.models
          .split(/[\s,]+/)
          .map((m) => m.trim())
          .filter(Boolean),
        ...(kind === 'openai-compatible' || baseURL.trim() ? { baseURL: baseURL.trim() } : {}),
      },
    }),
  );
}

/** The refusal's words, and the field they are about (a 400 names it): they go next to that field. */
function refusal(failure: unknown): FieldError {
  const { message, body } = failure as ApiError;
  const named = body as { field?: unknown; data?: { field?: unknown } } | undefined;
  const field = named?.field ?? named?.data?.field;
  return { message, field: typeof field === 'string' ? field : undefined };
}

function KindSelect({ kind, onChoose }: { kind: Kind; onChoose: (kind: Kind) => void }) {
  return (
    <>
      <label for="provider-kind">Provider</label>
      <select id="provider-kind" value={kind} onChange={(e) => onChoose(e.currentTarget.value as Kind)}>
        {(Object.keys(DEFAULTS) as Kind[]).map((k) => (
          <option key={k} value={k}>
            {DEFAULTS[k].label}
          </option>
        ))}
      </select>
    </>
  );
}

function AddProvider({ onAdded }: { onAdded: () => void }) {
  const [draft, setDraft] = useState<Draft>({
    kind: 'openai',
    id: DEFAULTS.openai.id,
    baseURL: '',
    apiKey: '',
    models: DEFAULTS.openai.models,
  });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<FieldError>();
  const [done, setDone] = useState('');
  const set = (change: Partial<Draft>) => setDraft((before) => ({ ...before, ...change }));
  const choose = (kind: Kind) => set({ kind, id: DEFAULTS[kind].id, models: DEFAULTS[kind].models });
  const field = (name: keyof Omit<Draft, 'kind'>, label: string, input?: JSX.IntrinsicElements['input']) => (
    <LabelledInput
      id={`provider-${name}`}
      label={label}
      value={draft[name]}
      onValue={(value) => set({ [name]: value })}
      message={error?.field === name ? fieldWords(error.message) : undefined}
      input={input}
    />
  );

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setDone('');
    try {
      const added = await addProvider(draft);
      set({ apiKey: '' });
      setDone(
        `Added ${added.id} with ${added.models.join(', ')}. Its key is kept in the data folder; ${added.configFile} refers to it as ${added.keyReference}.`,
      );
      onAdded();
    } catch (failure) {
      setError(refusal(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    // noValidate: the server checks every field and its words stand next to the field, in one style.
    <form
      class="panel"
      noValidate
      onSubmit={(event) => void submit(event)}
      aria-labelledby="add-provider-title"
    >
      <h2 id="add-provider-title">Add a provider</h2>
      <p class="muted small">
        For every location. The key is stored in the server’s data folder, readable only by the server’s user;
        it is never written into a config file and never shown again.
      </p>
      <KindSelect kind={draft.kind} onChoose={choose} />
      {field('id', 'Provider id')}
      {draft.kind === 'openai-compatible' &&
        field('baseURL', 'Base URL', { type: 'url', placeholder: 'http://127.0.0.1:11434/v1' })}
      {field('apiKey', 'API key', { type: 'password', autoComplete: 'off' })}
      {field('models', 'Models (ids, separated by commas)')}
      {error && !FIELDS.includes(error.field ?? '') && (
        <p class="error" role="alert">
          {formWords(error.message, error.field)}
        </p>
      )}
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Adding…' : 'Add provider'}
        </button>
      </div>
      {done && (
        <p class="notice" role="status">
          {done}
        </p>
      )}
    </form>
  );
}
