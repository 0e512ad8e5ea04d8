import { useState } from 'preact/hooks';
import { api, call, dollars, isAdmin, microToNumber, type Schemas } from '../api';
import type { PageProps } from '../main';
import { DataTable } from '../table';
import { Loading, useLoad } from '../ui';
import { UsageTabs } from './usage-tabs';

type Row = Schemas['UsageRowDto'];

const EMPTY_DAY = { spent_micro_cents: '0', requests: 0, input_tokens: 0, output_tokens: 0 };

/** Every day of the month (`YYYY-MM`), with the recorded rows and zero for the others. */
function monthDays(month: string, rows: Row[]): Row[] {
  const byDay = new Map(rows.map((row) => [row.key, row]));
  const [year, number] = month.split('-').map(Number);
  const days = new Date(Date.UTC(year, number, 0)).getUTCDate();
  return Array.from({ length: days }, (_, i) => {
    const key = `${month}-${String(i + 1).padStart(2, '0')}`;
    return byDay.get(key) ?? { key, ...EMPTY_DAY };
  });
}

const count = new Intl.NumberFormat('en-US');

/** What the daily chart can show: spend, or (for free and local models, which cost nothing) requests and tokens. */
const METRICS = {
  spend: {
    label: 'Spend',
    value: (row: Row) => microToNumber(row.spent_micro_cents),
    highest: (max: number) => dollars(String(Math.round(max * 100_000_000))),
  },
  requests: {
    label: 'Requests',
    value: (row: Row) => row.requests,
    highest: (max: number) => `${count.format(max)} requests`,
  },
  tokens: {
    label: 'Tokens',
    value: (row: Row) => row.input_tokens + row.output_tokens,
    highest: (max: number) => `${count.format(max)} tokens`,
  },
} as const;
type Metric = keyof typeof METRICS;

/** Per day as SVG bars (no chart library, no external asset): spend, requests or tokens, as the person picks. */
function DailyChart({ rows: recorded, month }: { rows: Row[]; month: string }) {
  // A month of free or local models only costs nothing: its chart starts on requests, not on empty bars.
  const costs = recorded.some((row) => row.spent_micro_cents !== '0');
  const [picked, setPicked] = useState<Metric>();
  if (recorded.length === 0) return <p class="muted">No usage recorded in this month.</p>;
  const metric = METRICS[picked ?? (costs ? 'spend' : 'requests')];
  const rows = monthDays(month, recorded);
  const width = 640;
  const height = 160;
  const max = Math.max(...rows.map(metric.value), metric === METRICS.spend ? 0.01 : 1);
  const step = width / rows.length;
  return (
    <figure>
      <fieldset class="segmented">
        <legend class="sr">Show per day</legend>
        {(Object.keys(METRICS) as Metric[]).map((key) => (
          <label key={key}>
            <input
              type="radio"
              name="daily-metric"
              value={key}
              checked={METRICS[key] === metric}
              onChange={() => setPicked(key)}
            />{' '}
            {METRICS[key].label}
          </label>
        ))}
      </fieldset>
      <svg
        viewBox={`0 0 ${width} ${height + 20}`}
        width="100%"
        role="img"
        aria-label={`${metric.label} per day this month`}
      >
        {rows.map((row, i) => {
          const value = metric.value(row);
          const h = Math.max(1, (value / max) * height);
          return (
            <g key={row.key}>
              <rect
                x={i * step + 2}
                y={height - h}
                width={Math.max(2, step - 4)}
                height={h}
                fill={value > 0 ? '#2f5bd3' : '#d8d8d8'}
              >
                <title>
                  {row.key}: {dollars(row.spent_micro_cents)}, {count.format(row.requests)} requests,{' '}
                  {count.format(row.input_tokens + row.output_tokens)} tokens
                </title>
              </rect>
              {i % 5 === 0 ? (
                <text
                  x={i === 0 ? 2 : i * step + step / 2}
                  y={height + 14}
                  font-size="10"
                  text-anchor={i === 0 ? 'start' : 'middle'}
                >
                  {row.key.slice(5)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <figcaption class="muted small">
        {metric.label} per UTC day (highest: {metric.highest(max)}).
      </figcaption>
    </figure>
  );
}

function UsageTable({
  rows,
  caption,
  name,
}: {
  rows: Row[];
  caption: string;
  name: (key: string) => string;
}) {
  return (
    <DataTable
      caption={caption}
      rows={rows}
      rowKey={(row) => row.key}
      empty="Nothing yet."
      columns={[
        { header: caption, cell: (row) => name(row.key) },
        { header: 'Spent', cell: (row) => dollars(row.spent_micro_cents) },
        { header: 'Requests', cell: (row) => row.requests.toLocaleString('en-US') },
        { header: 'Input tokens', cell: (row) => row.input_tokens.toLocaleString('en-US') },
        { header: 'Output tokens', cell: (row) => row.output_tokens.toLocaleString('en-US') },
      ]}
    />
  );
}

/** The month's reports (per day, member, key and model) and the names their keys stand for. */
async function loadUsage(org: string, month: string) {
  const from = `${month}-01T00:00:00.000Z`;
  const next = new Date(from);
  next.setUTCMonth(next.getUTCMonth() + 1);
  const report = (group_by: 'day' | 'member' | 'key' | 'model') =>
    call(
      api.GET('/console/api/orgs/{org}/usage', {
        params: { path: { org }, query: { group_by, from, to: next.toISOString() } },
      }),
    ).then((r) => r.data);
  const [days, members, keys, models, people, accounts, personal, connections] = await Promise.all([
    report('day'),
    report('member'),
    report('key'),
    report('model'),
    call(api.GET('/console/api/orgs/{org}/members', { params: { path: { org } } })),
    call(api.GET('/console/api/orgs/{org}/service-accounts', { params: { path: { org } } })),
    // Names only: the page reads without them.
    call(api.GET('/console/api/orgs/{org}/keys', { params: { path: { org } } })).catch(() => []),
    call(api.GET('/console/api/orgs/{org}/connections', { params: { path: { org } } })).catch(() => []),
  ]);
  // Key ids as "account / key name", for the keys that spent.
  const keyNames = new Map<string, string>();
  if (keys.length > 0) {
    const lists = await Promise.all(
      accounts.map((account) =>
        call(
          api.GET('/console/api/orgs/{org}/service-accounts/{sa}/keys', {
            params: { path: { org, sa: account.id } },
          }),
        ).then((list) => list.map((key) => [key.id, `${account.name} / ${key.name}`] as const)),
      ),
    );
    for (const [id, name] of lists.flat()) keyNames.set(id, name);
    for (const key of personal) keyNames.set(key.id, `your key ${key.name}`);
  }
  const connectionNames = new Map(
    connections.map((connection) => [
      connection.id,
      { name: connection.name, models: connection.models as Record<string, { name?: string }> },
    ]),
  );
  return { days, members, keys, models, people, keyNames, connectionNames };
}

/** A key of the report by name: the account and key, "your key …", or what it was. */
function keyName(keyNames: Map<string, string>, key: string): string {
  return key === 'session'
    ? 'console sign-in'
    : (keyNames.get(key) ?? `a key no longer listed (…${key.slice(-4)})`);
}

/** A model of the report by name: a connection's models are `<connection id>/<model>`, named by the connection. */
function modelName(
  connectionNames: Map<string, { name: string; models: Record<string, { name?: string }> }>,
  key: string,
): string {
  const [head, ...rest] = key.split('/');
  const connection = connectionNames.get(head);
  const model = rest.join('/');
  return connection ? `${connection.name} / ${connection.models[model]?.name ?? model}` : key;
}

export function UsagePage({ workspace }: PageProps) {
  const org = workspace.id;
  const [month, setMonth] = useState(() => new Date().toISOString().slice(0, 7));
  const state = useLoad(() => loadUsage(org, month), [org, month]);
  if (!isAdmin(workspace.role))
    return (
      <>
        <UsageTabs org={org} current="spend" />
        <p class="muted">
          Only owners and admins of {workspace.name} see its spend; your own calls are under Requests.
        </p>
      </>
    );
  return (
    <>
      <UsageTabs org={org} current="spend" />
      <div class="row">
        <div>
          <label for="month">Month</label>
          <input
            id="month"
            type="month"
            value={month}
            onInput={(e) => e.currentTarget.value && setMonth(e.currentTarget.value)}
          />
        </div>
      </div>
      <Loading state={state}>
        {({ days, members, keys, models, people, keyNames, connectionNames }) => {
          const names = new Map(people.map((person) => [person.user_id, person.name]));
          return (
            <>
              <h2>Per day</h2>
              <DailyChart rows={days} month={month} />
              <h2>By member</h2>
              <UsageTable rows={members} caption="Member" name={(key) => names.get(key) ?? key} />
              <h2>By key</h2>
              <UsageTable rows={keys} caption="Key" name={(key) => keyName(keyNames, key)} />
              <h2>By model</h2>
              <UsageTable rows={models} caption="Model" name={(key) => modelName(connectionNames, key)} />
            </>
          );
        }}
      </Loading>
    </>
  );
}
