import { useEffect, useRef, useState } from 'preact/hooks';
import { api, call, isAdmin, type Schemas, wordsOf } from '../api';
import type { PageProps } from '../main';
import { DataTable } from '../table';
import { ErrorText, useLoad } from '../ui';
import { UsageTabs } from './usage-tabs';

type Row = Schemas['RequestLogRowDto'];

/** The filters the page and its address share; dates are UTC days (`YYYY-MM-DD`), `to` included. */
const FILTERS = ['key', 'model', 'member', 'status', 'from', 'to'] as const;
type Filters = Partial<Record<(typeof FILTERS)[number], string>>;

const PAGE_SIZE = 50;
/** What the CSV link asks for: the API's most in one file. */
const CSV_ROWS = 1000;

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

function pageSize(): number {
  const asked = Number(new URLSearchParams(location.search).get('limit'));
  return Number.isInteger(asked) && asked >= 1 && asked <= 1000 ? asked : PAGE_SIZE;
}

/** The API's query for the filters: days become the ISO times that bound them. */
function apiQuery(filters: Filters) {
  const query: {
    key?: string;
    model?: string;
    member?: string;
    status?: number;
    from?: string;
    to?: string;
  } = {};
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

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** One call's cost: cents as usual, below a cent to the micro-dollar (a call's usual size). */
function cost(microCents: string): string {
  const value = Number(BigInt(microCents)) / 100_000_000;
  if (value === 0 || value >= 0.01) return usd.format(value);
  return `$${value.toFixed(6).replace(/0+$/, '')}`;
}

const time = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
const count = (n: number) => n.toLocaleString('en-US');

/** People, service accounts and keys by id, for the table and the filters; ids when a name cannot be read. */
function useNames(org: string, admin: boolean) {
  return useLoad(async () => {
    const [members, personal, accounts] = await Promise.all([
      call(api.GET('/console/api/orgs/{org}/members', { params: { path: { org } } })).catch(() => []),
      call(api.GET('/console/api/orgs/{org}/keys', { params: { path: { org } } })).catch(() => []),
      admin
        ? call(api.GET('/console/api/orgs/{org}/service-accounts', { params: { path: { org } } })).catch(
            () => [],
          )
        : Promise.resolve([]),
    ]);
    const accountKeys = await Promise.all(
      accounts.map((account) =>
        call(
          api.GET('/console/api/orgs/{org}/service-accounts/{sa}/keys', {
            params: { path: { org, sa: account.id } },
          }),
        ).then(
          (keys) => keys.map((key) => ({ id: key.id, name: `${account.name} / ${key.name}` })),
          () => [],
        ),
      ),
    );
    const keys = [
      ...accountKeys.flat(),
      ...personal.map((key) => ({ id: key.id, name: `your key ${key.name}` })),
    ];
    return {
      members: members.map((member) => ({ id: member.user_id, name: member.name })),
      keys,
      member: new Map(members.map((member) => [member.user_id, member.name])),
      key: new Map(keys.map((key) => [key.id, key.name])),
    };
  }, [org, admin]);
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

function FiltersForm(props: {
  filters: Filters;
  admin: boolean;
  members: Named[];
  keys: Named[];
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
            value={draft.model ?? ''}
            onInput={set('model')}
          />
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

function RequestRows(props: {
  rows: Row[];
  memberName: (id: string) => string;
  keyName: (id: string | null, member: string) => string;
}) {
  return (
    // The region is focusable, so a keyboard can scroll it sideways when the window is narrow.
    <DataTable
      region="Gateway calls"
      class="requests"
      caption="Gateway calls, newest first"
      rows={props.rows}
      rowKey={(row) => row.id}
      columns={[
        {
          header: 'Time (UTC)',
          class: 'nowrap',
          cell: (row) => <time dateTime={row.time}>{time(row.time)}</time>,
        },
        { header: 'Member', cell: (row) => props.memberName(row.member) },
        { header: 'Key', cell: (row) => props.keyName(row.key, row.member) },
        {
          header: 'Model and route',
          cell: (row) => (
            <>
              {row.model}
              {row.served_by && row.served_by !== row.model ? (
                <span class="muted small"> via {row.served_by}</span>
              ) : null}
              <br />
              <code class="small muted">{row.route.replace(/^\/inference/, '')}</code>
            </>
          ),
        },
        {
          header: 'Status',
          cell: (row) => (
            <>
              {row.status} <span class="muted small">{row.outcome.replace(/_/g, ' ')}</span>
            </>
          ),
        },
        {
          header: 'Tokens in / out',
          class: 'nowrap',
          cell: (row) => (
            <>
              {count(row.input_tokens)} / {count(row.output_tokens)}
            </>
          ),
        },
        { header: 'Cost', cell: (row) => cost(row.cost_micro_cents) },
        {
          header: 'Duration',
          class: 'nowrap',
          cell: (row) => (
            <>
              {count(row.duration_ms)} ms
              {row.ttfb_ms === null ? null : (
                <>
                  <br />
                  <span class="muted small">first byte {count(row.ttfb_ms)} ms</span>
                </>
              )}
            </>
          ),
        },
      ]}
    />
  );
}

/** The filters of the address: applying some writes them into it (a step of history); Back brings the earlier. */
function useAddressFilters() {
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

/** The calls the filters match, a page at a time: the first whenever the filters change, the next on `more`. */
function useRequestPages(org: string, filters: Filters) {
  const [limit] = useState(pageSize);
  const [rows, setRows] = useState<Row[]>();
  const [cursor, setCursor] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  // Bumped when the filters change, so an older page that arrives late is not appended to the new list.
  const view = useRef(0);

  const fetchPage = (after?: string) =>
    call(
      api.GET('/console/api/orgs/{org}/usage/requests', {
        params: {
          path: { org },
          query: { ...apiQuery(filters), limit, ...(after ? { cursor: after } : {}) },
        },
      }),
      // JSON unless format=csv is asked for.
    ).then((page) => page as Schemas['RequestLogPageDto']);

  useEffect(() => {
    let live = true;
    view.current += 1;
    setRows(undefined);
    setError(undefined);
    fetchPage().then(
      (page) => {
        if (!live) return;
        setRows(page.data);
        setCursor(page.next_cursor);
      },
      (failure) => live && setError(wordsOf(failure)),
    );
    return () => {
      live = false;
    };
  }, [org, JSON.stringify(filters)]);

  const more = async () => {
    if (!cursor) return;
    setBusy(true);
    setError(undefined);
    const asked = view.current;
    try {
      const page = await fetchPage(cursor);
      if (asked !== view.current) return;
      setRows((previous) => [...(previous ?? []), ...page.data]);
      setCursor(page.next_cursor);
    } catch (failure) {
      setError(wordsOf(failure));
    } finally {
      setBusy(false);
    }
  };
  return { rows, cursor, busy, error, more };
}

/** The link to the CSV of the calls these filters match (the newest `CSV_ROWS`). */
function csvAddress(org: string, filters: Filters): string {
  const csvQuery = new URLSearchParams({ format: 'csv', limit: String(CSV_ROWS) });
  for (const [name, value] of Object.entries(apiQuery(filters))) csvQuery.set(name, String(value));
  return `/console/api/orgs/${encodeURIComponent(org)}/usage/requests?${csvQuery.toString()}`;
}

type Names = ReturnType<typeof useNames>['data'];

/** A key by its name; one that is not listed by what it is, and the end of its id. */
function keyName(names: Names, id: string | null, memberId: string): string {
  if (id === null) return 'no key';
  const name = names?.key.get(id);
  if (name) return name;
  // Another person's own keys are theirs to list; a service account's key that is not listed is gone.
  return memberId.startsWith('usr_')
    ? `a personal key (…${id.slice(-4)})`
    : `a key no longer listed (…${id.slice(-4)})`;
}

/** The calls shown so far, how many, and "Load more" while there are older ones; or why there is none. */
function RequestList({
  pages,
  filtered,
  names,
}: {
  pages: ReturnType<typeof useRequestPages>;
  filtered: boolean;
  names: Names;
}) {
  const { rows, cursor, busy } = pages;
  if (rows === undefined) return pages.error ? null : <p class="muted">Loading…</p>;
  if (rows.length === 0)
    return (
      <p>
        {filtered
          ? 'No gateway call matches these filters.'
          : 'No gateway calls yet: each call through the gateway, refused or answered, will show here.'}
      </p>
    );
  return (
    <>
      <RequestRows
        rows={rows}
        memberName={(id) => names?.member.get(id) ?? id}
        keyName={(id, memberId) => keyName(names, id, memberId)}
      />
      <p class="muted small" role="status">
        {count(rows.length)} {rows.length === 1 ? 'call' : 'calls'} shown
        {cursor ? '; older ones on demand.' : ', the oldest included.'}
      </p>
      {cursor ? (
        <button type="button" class="secondary" disabled={busy} onClick={pages.more}>
          {busy ? 'Loading…' : 'Load more'}
        </button>
      ) : null}
    </>
  );
}

/** The gateway's calls one by one, newest first, filtered by the address's query and paged on demand. */
export function RequestsPage({ workspace }: PageProps) {
  const org = workspace.id;
  const admin = isAdmin(workspace.role);
  const [filters, apply] = useAddressFilters();
  const pages = useRequestPages(org, filters);
  const names = useNames(org, admin).data;
  return (
    <>
      <UsageTabs org={org} current="requests" />
      <p class="muted">
        {admin
          ? `Every call through the gateway in ${workspace.name}, refusals included, newest first.`
          : `Your calls through the gateway in ${workspace.name}, refusals included, newest first.`}{' '}
        Kept 30 days by default.
      </p>
      <FiltersForm
        filters={filters}
        admin={admin}
        members={names?.members ?? []}
        keys={names?.keys ?? []}
        onApply={apply}
      />
      <p>
        <a href={csvAddress(org, filters)} download="requests.csv">
          Download CSV
        </a>{' '}
        <span class="muted small">(these filters, the newest {count(CSV_ROWS)} calls at most)</span>
      </p>
      <RequestList pages={pages} filtered={Object.keys(filters).length > 0} names={names} />
      <ErrorText message={pages.error} />
    </>
  );
}
