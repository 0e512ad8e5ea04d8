import { api, call, inOrg } from '../api';
import { describedBy, FieldError } from '../field-errors';
import { useLoad } from '../ui';

/** A model a key may be limited to: what the API stores (`value`) and what a person reads. */
export interface ModelChoice {
  /** As the gateway names it: `gpt-4o` (a catalogue model or route), `conn_…/llama`, `provider/model`. */
  value: string;
  /** The model's name. */
  name: string;
  /** Its provider's or connection's name. */
  provider: string;
}

type ConfigProvider = {
  name?: string;
  models?: Record<string, { name?: string }>;
  settings?: { baseURL?: string };
};

/** The workspace config's providers as choices: the console's own gateway names its models bare. */
function configChoices(providers: Record<string, ConfigProvider>): ModelChoice[] {
  return Object.entries(providers).flatMap(([provider, entry]) => {
    const gateway = /\/inference\/(openai|anthropic)\/v1$/.test(entry.settings?.baseURL ?? '');
    return Object.entries(entry.models ?? {}).map(([model, info]) => ({
      value: gateway ? model : `${provider}/${model}`,
      name: info.name ?? model,
      provider: entry.name ?? provider,
    }));
  });
}

/**
 * The models a key may be limited to, by name: the workspace config's (the gateway's catalogue, admins'
 * providers, the connections it offers) and, for those who may read them, every connection's models. None if
 * they cannot be read.
 */
export function useModelChoices(org: string, admin: boolean): ModelChoice[] {
  const choices = useLoad(async () => {
    const [document, connections] = await Promise.all([
      call(api.GET('/console/api/v2/config', { params: inOrg(org) })).catch(() => ({ providers: {} })),
      admin
        ? call(api.GET('/console/api/orgs/{org}/connections', { params: { path: { org } } })).catch(() => [])
        : Promise.resolve([]),
    ]);
    const found = new Map<string, ModelChoice>();
    for (const choice of configChoices((document.providers ?? {}) as Record<string, ConfigProvider>))
      found.set(choice.value, choice);
    for (const connection of connections)
      for (const [model, info] of Object.entries(connection.models as Record<string, { name?: string }>)) {
        const value = `${connection.id}/${model}`;
        if (!found.has(value))
          found.set(value, { value, name: info.name ?? model, provider: connection.name });
      }
    return [...found.values()];
  }, [org, admin]);
  return choices.data ?? [];
}

/** A stored model as a person reads it: `Llama 3.3 70B (Together)`, or the id when it is not listed. */
export function choiceWords(choices: ModelChoice[], value: string): string {
  const found = choices.find((choice) => choice.value === value);
  return found ? `${found.name} (${found.provider})` : value;
}

/**
 * The models a key may call, picked by name (grouped by provider), and a box for any other model or route by
 * its id. `chosen` is what the API stores; none ticked and the box empty is any model the workspace allows.
 */
export function ModelPicker(props: {
  id: string;
  choices: ModelChoice[];
  chosen: string[];
  others: string;
  onChosen: (chosen: string[]) => void;
  onOthers: (others: string) => void;
  message?: string;
}) {
  const { id, choices, chosen } = props;
  const groups = new Map<string, ModelChoice[]>();
  for (const choice of choices) groups.set(choice.provider, [...(groups.get(choice.provider) ?? []), choice]);
  const toggle = (value: string, on: boolean) =>
    props.onChosen(on ? [...chosen, value] : chosen.filter((item) => item !== value));
  return (
    <fieldset class="model-picker" aria-describedby={props.message ? `${id}-error` : undefined}>
      <legend>Allowed models</legend>
      <p class="muted small">
        {choices.length === 0
          ? 'The workspace lists no models yet: name them by id below. None: any model the workspace allows.'
          : 'None chosen: any model the workspace allows.'}
      </p>
      {[...groups].map(([provider, list], index) => (
        <div key={provider} class="model-group" role="group" aria-labelledby={`${id}-group-${index}`}>
          <p id={`${id}-group-${index}`} class="model-provider">
            {provider}
          </p>
          <ul>
            {list.map((choice) => (
              <li key={choice.value}>
                <label>
                  <input
                    type="checkbox"
                    checked={chosen.includes(choice.value)}
                    onChange={(e) => toggle(choice.value, e.currentTarget.checked)}
                  />{' '}
                  {choice.name}
                </label>
              </li>
            ))}
          </ul>
        </div>
      ))}
      <label for={`${id}-others`}>Other models or routes (ids, one per line or comma-separated)</label>
      <textarea
        id={`${id}-others`}
        rows={2}
        value={props.others}
        onInput={(e) => props.onOthers(e.currentTarget.value)}
        {...describedBy(id, props.message)}
      />
      <FieldError id={id} message={props.message} />
    </fieldset>
  );
}
