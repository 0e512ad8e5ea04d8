import { useEffect, useState } from 'preact/hooks';
import type { paths } from '../../shared/api/console';

/** The query of `GET /console/api/orgs/{org}/usage/requests`, as the API document declares it. */
type RequestsQuery = NonNullable<
  paths['/console/api/orgs/{org}/usage/requests']['get']['parameters']['query']
>;

/** The filters the page and its address share; dates are UTC days (`YYYY-MM-DD`), `to` included. */
const FILTERS = ['key', 'model', 'member', 'status', 'from', 'to'] as const;
export type Filters = Partial<Record<(typeof FILTERS)[number], string>>;

const STATUSES: Array<[number, string]> = [
  [200, 'answered'],
  [400, 'invalid request'],
  [402, 'budget refused'],
  [403, 'refused (policy or key)'],
  [404, 'no such model'],
  [429, 'rate limited'],
  [499, 'client left'],
  [502, 'upstream error'],
];

function filtersInAddress(): Filters {
  const search = new URLSearchParams(location.search);
  const filters: Filters = {};
  for (const name of FILTERS) {
    const value = search.get(name);
    if (value) filters[name] = value;
  }
  return filters;
}

/** The API's query for the filters: days become the ISO times that bound them. */
export function apiQuery(filters: Filters) {
  const query: Omit<RequestsQuery, 'limit' | 'cursor' | 'format'> = {};
  if (filters.key) query.key = filters.key;
  if (filters.model) query.model = filters.model;
  if (filters.member) query.member = filters.member;
  if (filters.status) query.status = Number(filters.status);
  if (filters.from) query.from = `${filters.from}T00:00:00.000Z`;
  if (filters.to) {
    const next = new Date(`${filters.to}T00:00:00.000Z`);
    next.setUTCDate(next.getUTCDate() + 1);
    query.to = next.toISOString();
  }
  return query;
}

type Named = { id: string; name: string };

const STATUS_CHOICES: Named[] = STATUSES.map(([status, words]) => ({
  id: String(status),
  name: `${status} ${words}`,
}));

/** A filter chosen from a list (`any`: none); a value the list does not have (from the address) stays, as it is. */
function ChoiceFilter(props: {
  name: 'key' | 'member' | 'status';
  label: string;
  any: string;
  value?: string;
  items: Named[];
  onChange: (event: { currentTarget: { value: string } }) => void;
}) {
  const { value } = props;
  return (
    <div>
      <label for={`filter-${props.name}`}>{props.label}</label>
      <select id={`filter-${props.name}`} value={value ?? ''} onChange={props.onChange}>
        <option value="">{props.any}</option>
        {props.items.map((item) => (
          <option value={item.id} key={item.id}>
            {item.name}
          </option>
        ))}
        {!value || props.items.some((item) => item.id === value) ? null : (
          <option value={value}>{value}</option>
        )}
      </select>
    </div>
  );
}

export function FiltersForm(props: {
  filters: Filters;
  admin: boolean;
  members: Named[];
  keys: Named[];
  /** The workspace's models by name, offered as the model box is typed in (it takes any model or route). */
  models: Named[];
  onApply: (filters: Filters) => void;
}) {
  const [draft, setDraft] = useState<Filters>(props.filters);
  useEffect(() => setDraft(props.filters), [JSON.stringify(props.filters)]);
  const set = (name: keyof Filters) => (event: { currentTarget: { value: string } }) =>
    setDraft((previous) => ({ ...previous, [name]: event.currentTarget.value }));
  const choice = (name: 'key' | 'member' | 'status', label: string, any: string, items: Named[]) => (
    <ChoiceFilter
      name={name}
      label={label}
      any={any}
      value={draft[name]}
      items={items}
      onChange={set(name)}
    />
  );
  return (
    <form
      role="search"
      aria-label="Filter requests"
      onSubmit={(event) => {
        event.preventDefault();
        props.onApply(draft);
      }}
    >
      <div class="row">
        {choice('key', 'Key', 'any key', props.keys)}
        {props.admin ? choice('member', 'Member', 'anyone', props.members) : null}
        <div>
          <label for="filter-model">Model</label>
          <input
            id="filter-model"
            type="text"
            maxLength={200}
            placeholder="any"
            list="filter-model-choices"
            value={draft.model ?? ''}
            onInput={set('model')}
          />
          <datalist id="filter-model-choices">
            {props.models.map((model) => (
              <option value={model.id} key={model.id} label={model.name} />
            ))}
          </datalist>
        </div>
        {choice('status', 'Status', 'any status', STATUS_CHOICES)}
        <div>
          <label for="filter-from">From (UTC day)</label>
          <input id="filter-from" type="date" value={draft.from ?? ''} onInput={set('from')} />
        </div>
        <div>
          <label for="filter-to">To (UTC day, included)</label>
          <input id="filter-to" type="date" value={draft.to ?? ''} onInput={set('to')} />
        </div>
        <button type="submit">Apply filters</button>
        <button type="button" class="secondary" onClick={() => props.onApply({})}>
          Clear filters
        </button>
      </div>
    </form>
  );
}

/** The filters of the address: applying some writes them into it (a step of history); Back brings the earlier. */
export function useAddressFilters() {
  const [filters, setFilters] = useState<Filters>(filtersInAddress);
  useEffect(() => {
    const back = () => setFilters(filtersInAddress());
    addEventListener('popstate', back);
    return () => removeEventListener('popstate', back);
  }, []);
  const apply = (next: Filters) => {
    const kept: Filters = {};
    for (const name of FILTERS) if (next[name]?.trim()) kept[name] = next[name]!.trim();
    const url = new URL(location.href);
    for (const name of FILTERS) url.searchParams.delete(name);
    for (const [name, value] of Object.entries(kept)) url.searchParams.set(name, value);
    history.pushState(null, '', url.pathname + url.search);
    setFilters(kept);
  };
  return [filters, apply] as const;
}
