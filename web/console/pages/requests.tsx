import { useEffect, useRef, useState } from 'preact/hooks';
import { api, call, isAdmin, type Schemas, wordsOf } from '../api';
import type { PageProps } from '../main';
import { DataTable } from '../table';
import { ErrorText, useLoad } from '../ui';
import { apiQuery, type Filters, FiltersForm, useAddressFilters } from './requests-filters';
import { useModelChoices } from './model-picker';
import { UsageTabs } from './usage-tabs';

type Row = Schemas['RequestLogRowDto'];

const PAGE_SIZE = 50;
/** What the CSV link asks for: the API's most in one file. */
const CSV_ROWS = 1000;

function pageSize(): number {
  const asked = Number(new URLSearchParams(location.search).get('limit'));
  return Number.isInteger(asked) && asked >= 1 && asked <= 1000 ? asked : PAGE_SIZE;
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

function RequestRows(props: {
  rows: Row[];
  memberName: (id: string) => string;
  keyName: (row: Row) => string;
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
        { header: 'Member', cell: (row) => row.member_name ?? props.memberName(row.member) },
        { header: 'Key', cell: (row) => props.keyName(row) },
        {
          header: 'Model and route',
          cell: (row) => (
            <>
              {row.model_name ?? row.model}
              {row.served_by && row.served_by !== row.model ? (
                <span class="muted small"> via {row.served_by_name ?? row.served_by}</span>
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

/**
 * A key by its name: as this page lists it (`your key laptop`, `ci / deploy`), else as the log names it; one
 * that is neither by what it is, and the end of its id.
 */
function keyName(names: Names, { key: id, key_name: logged, member: memberId }: Row): string {
  if (id === null) return 'no key';
  const name = names?.key.get(id) ?? logged;
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
        keyName={(row) => keyName(names, row)}
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
  const models = useModelChoices(org, admin).map((choice) => ({
    id: choice.value,
    name: `${choice.name} (${choice.provider})`,
  }));
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
        models={models}
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
