import type { JSX } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { Schemas } from '../api';
import { FormEnd, TextField, useFormAction } from '../field-errors';
import { choiceWords, type ModelChoice, ModelPicker } from './model-picker';

type Key = Schemas['KeyDto'];
export type KeyControls = Pick<
  Schemas['UpdateKeyDto'],
  'rate_limit' | 'allowed_models' | 'monthly_budget_dollars'
>;

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/**
 * "60 req/min · 100K tok/min · 2 models · $25.00/month ($4.00 spent)", or "no limits". `spent` (dollars this
 * month) when the reader may see usage.
 */
export function controlsSummary(
  key: Pick<Key, 'rate_limit' | 'allowed_models' | 'monthly_budget_dollars'>,
  spent?: number,
  choices: ModelChoice[] = [],
): string {
  const parts: string[] = [];
  // A model's name may be long: it wraps between its words, never inside one.
  let modelPart = '';
  const { requests_per_minute: requests, tokens_per_minute: tokens } = key.rate_limit;
  if (requests !== null) parts.push(`${compact.format(requests)} req/min`);
  if (tokens !== null) parts.push(`${compact.format(tokens)} tok/min`);
  if (key.allowed_models !== null) {
    const count = key.allowed_models.length;
    modelPart = count === 1 ? `only ${choiceWords(choices, key.allowed_models[0])}` : `${count} models`;
    parts.push(modelPart);
  }
  if (key.monthly_budget_dollars !== null) {
    const budget = `${usd.format(key.monthly_budget_dollars)}/month`;
    parts.push(spent === undefined ? budget : `${budget} (${usd.format(spent)} spent)`);
  }
  // Each control on one line: a wrap falls between them, never inside one.
  const kept = (part: string) => (part === modelPart ? part : part.replace(/ /g, '\u00a0'));
  return parts.length === 0 ? 'no limits' : parts.map(kept).join(' · ');
}

/** An empty box is no limit; anything else goes to the API as it is, which says what is wrong with it. */
function limit(text: string): number | null {
  return text.trim() === '' ? null : Number(text.trim());
}

/** One model per line, or separated by commas; none is any model the workspace allows. */
function models(text: string): string[] | null {
  const list = text
    .split(/[\n,]/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
  return list.length === 0 ? null : list;
}

const FIELDS = {
  requests: 'rate_limit.requests_per_minute',
  tokens: 'rate_limit.tokens_per_minute',
  models: 'allowed_models',
  budget: 'monthly_budget_dollars',
};

/** The form's boxes, as typed; the models picked from the list, and any other typed by id. */
interface Draft {
  requests: string;
  tokens: string;
  chosen: string[];
  others: string;
  budget: string;
}

const draftOf = (key: Key, choices: ModelChoice[]): Draft => {
  const listed = (model: string) => choices.some((choice) => choice.value === model);
  return {
    requests: String(key.rate_limit.requests_per_minute ?? ''),
    tokens: String(key.rate_limit.tokens_per_minute ?? ''),
    chosen: (key.allowed_models ?? []).filter(listed),
    others: (key.allowed_models ?? []).filter((model) => !listed(model)).join('\n'),
    budget: String(key.monthly_budget_dollars ?? ''),
  };
};

/** The controls the boxes say: an empty one is no limit. */
function controlsOf(draft: Draft): KeyControls {
  const requestsPerMinute = limit(draft.requests);
  const tokensPerMinute = limit(draft.tokens);
  return {
    rate_limit:
      requestsPerMinute === null && tokensPerMinute === null
        ? null
        : { requests_per_minute: requestsPerMinute, tokens_per_minute: tokensPerMinute },
    allowed_models: models([...draft.chosen, draft.others].join('\n')),
    monthly_budget_dollars: limit(draft.budget),
  };
}

const NONE: KeyControls = { rate_limit: null, allowed_models: null, monthly_budget_dollars: null };

/** The controls of one key: rate limits and the models it may call, each cleared by emptying its box. */
export function KeyControlsForm(props: {
  keyItem: Key;
  /** The models to pick from, by name. */
  knownModels: ModelChoice[];
  onSave: (controls: KeyControls) => Promise<unknown>;
  onClose: () => void;
}) {
  const key = props.keyItem;
  const [draft, setDraft] = useState(() => draftOf(key, props.knownModels));
  const form = useFormAction(Object.values(FIELDS));
  const first = useRef<HTMLInputElement>(null);
  // Focused as the form appears (a layout effect): a later focus would move the caret out of a box being typed in.
  useLayoutEffect(() => first.current?.focus(), []);
  const id = (field: string) => `controls-${key.id}-${field}`;
  const set = (change: Partial<Draft>) => setDraft((previous) => ({ ...previous, ...change }));
  const save = (controls: KeyControls) =>
    form.run(async () => {
      await props.onSave(controls);
      props.onClose();
    });
  const number = (
    field: 'requests' | 'tokens' | 'budget',
    label: string,
    input: JSX.IntrinsicElements['input'],
  ) => (
    <TextField
      id={id(field)}
      label={label}
      value={draft[field]}
      onValue={(value) => setDraft((previous) => ({ ...previous, [field]: value }))}
      message={form.at(FIELDS[field])}
      input={{ type: 'number', ...input }}
    />
  );
  return (
    <form
      class="panel"
      aria-labelledby={id('title')}
      onSubmit={async (event) => {
        event.preventDefault();
        await save(controlsOf(draft));
      }}
    >
      <h4 id={id('title')}>Controls of {key.name}</h4>
      <p class="muted small">
        An empty box is no limit. The gateway holds every call with this key to them; the budget is per UTC
        month, on top of its member&rsquo;s and the workspace&rsquo;s.
      </p>
      <div class="row">
        {number('requests', 'Requests per minute', { ref: first, step: 1, inputMode: 'numeric' })}
        {number('tokens', 'Tokens per minute (input + output)', { step: 1, inputMode: 'numeric' })}
        {number('budget', 'Monthly budget ($)', { step: 0.01, inputMode: 'decimal' })}
      </div>
      <ModelPicker
        id={id('models')}
        choices={props.knownModels}
        chosen={draft.chosen}
        others={draft.others}
        onChosen={(chosen) => set({ chosen })}
        onOthers={(others) => set({ others })}
        message={form.at(FIELDS.models)}
      />
      <FormEnd form={form} submit="Save controls" onCancel={props.onClose}>
        <button type="button" class="secondary" disabled={form.busy} onClick={() => save(NONE)}>
          Clear all controls
        </button>
      </FormEnd>
    </form>
  );
}
