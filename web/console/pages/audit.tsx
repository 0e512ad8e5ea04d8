import { useState } from 'preact/hooks';
import { AUDIT_ACTIONS } from '@/modules/audit/audit-actions';
import { api, call, isAdmin, type Schemas, when } from '../api';
import { describe } from '../audit-words';
import type { PageProps } from '../main';
import { DataTable } from '../table';
import { ErrorText, Loading, useAction, useLoad } from '../ui';

type Entry = Schemas['AuditEntryDto'];

type Filter = { actor?: string; action?: string };
type Named = { id: string; name: string };

/** A page of the log (the first, or the one after `cursor`) with the filter. */
const auditPage = (org: string, filter: Filter, cursor?: string) =>
  call(
    api.GET('/console/api/orgs/{org}/audit', {
      params: { path: { org }, query: { ...(cursor ? { cursor } : {}), limit: 50, ...filter } },
    }),
  );

/** The first page, and the names of members and connections the entries are about. */
async function loadAudit(org: string, filter: Filter) {
  const [page, members, connections] = await Promise.all([
    auditPage(org, filter),
    call(api.GET('/console/api/orgs/{org}/members', { params: { path: { org } } })),
    // Names of connections, for entries about one; the log reads without them.
    call(api.GET('/console/api/orgs/{org}/connections', { params: { path: { org } } })).catch(() => []),
  ]);
  return { page, members, connections };
}

const ACTIONS: Named[] = AUDIT_ACTIONS.map((name) => ({ id: name, name }));

/** A filter of the log: a select whose first choice is none. */
function AuditFilter(props: {
  id: string;
  label: string;
  any: string;
  value: string;
  options: Named[];
  onChange: (value: string) => void;
}) {
  return (
    <div>
      <label for={props.id}>{props.label}</label>
      <select id={props.id} value={props.value} onChange={(e) => props.onChange(e.currentTarget.value)}>
        <option value="">{props.any}</option>
        {props.options.map((option) => (
          <option key={option.id} value={option.id}>
            {option.name}
          </option>
        ))}
      </select>
    </div>
  );
}

function AuditTable({ entries, names }: { entries: Entry[]; names: Map<string, string> }) {
  const nameOf = (id: string) => names.get(id);
  const who = (entry: Entry) =>
    entry.actor.type === 'system'
      ? 'Outpost'
      : (names.get(entry.actor.id ?? '') ?? entry.actor.id ?? 'unknown');
  return (
    <DataTable
      caption="Audit log"
      rows={entries}
      rowKey={(entry) => entry.id}
      columns={[
        { header: 'When', cell: (entry) => when(entry.time) },
        { header: 'Actor', cell: who },
        {
          header: 'What happened',
          cell: (entry) => (
            <>
              {describe(entry, nameOf)}
              {entry.source_address ? <div class="muted small">from {entry.source_address}</div> : null}
            </>
          ),
        },
        { header: 'Action', cell: (entry) => <code class="small">{entry.action}</code> },
      ]}
    />
  );
}

/** The entries loaded so far, how many, and "Load older entries" while there are more. */
function AuditLog(props: {
  entries: Entry[];
  cursor: string | null;
  names: Map<string, string>;
  more: ReturnType<typeof useAction>;
  onOlder: (cursor: string) => void;
}) {
  const { entries, cursor, more } = props;
  return (
    <>
      <p class="muted small" role="status">
        {entries.length === 0
          ? 'No entry matches.'
          : `${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}${cursor ? '; older ones below' : ''}.`}
      </p>
      <AuditTable entries={entries} names={props.names} />
      {cursor ? (
        <button type="button" disabled={more.busy} onClick={() => props.onOlder(cursor)}>
          Load older entries
        </button>
      ) : null}
      <ErrorText message={more.error} />
    </>
  );
}

export function AuditPage({ workspace }: PageProps) {
  const org = workspace.id;
  const [actor, setActor] = useState('');
  const [action, setAction] = useState('');
  const [older, setOlder] = useState<{ entries: Entry[]; cursor: string | null }>();
  const more = useAction();
  const filter = { ...(actor ? { actor } : {}), ...(action ? { action } : {}) };
  const first = useLoad(async () => {
    setOlder(undefined);
    return loadAudit(org, filter);
  }, [org, actor, action]);
  if (!isAdmin(workspace.role))
    return <p class="muted">Only owners and admins of {workspace.name} read its audit log.</p>;
  const loadOlder = (cursor: string) =>
    more.run(async () => {
      const next = await auditPage(org, filter, cursor);
      setOlder({ entries: [...(older?.entries ?? []), ...next.entries], cursor: next.next_cursor });
    });
  return (
    <>
      <div class="row">
        <AuditFilter
          id="filter-actor"
          label="Actor"
          any="Anyone"
          value={actor}
          options={(first.data?.members ?? []).map((member) => ({ id: member.user_id, name: member.name }))}
          onChange={setActor}
        />
        <AuditFilter
          id="filter-action"
          label="Action"
          any="Any action"
          value={action}
          options={ACTIONS}
          onChange={setAction}
        />
      </div>
      <Loading state={first}>
        {({ page, members, connections }) => (
          <AuditLog
            entries={[...page.entries, ...(older?.entries ?? [])]}
            cursor={older ? older.cursor : page.next_cursor}
            names={
              new Map<string, string>([
                ...members.map((member): [string, string] => [member.user_id, member.name]),
                ...connections.map((connection): [string, string] => [connection.id, connection.name]),
              ])
            }
            more={more}
            onOlder={(cursor) => void loadOlder(cursor)}
          />
        )}
      </Loading>
    </>
  );
}
