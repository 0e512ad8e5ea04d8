import { useState } from 'preact/hooks';
import { AUDIT_ACTIONS } from '../../../src/modules/audit/audit-actions';
import { api, call, isAdmin, type Schemas, when } from '../api';
import { describe } from '../audit-words';
import type { PageProps } from '../main';
import { DataTable } from '../table';
import { ErrorText, Loading, useAction, useLoad } from '../ui';

type Entry = Schemas['AuditEntryDto'];

export function AuditPage({ workspace }: PageProps) {
  const org = workspace.id;
  const [actor, setActor] = useState('');
  const [action, setAction] = useState('');
  const [older, setOlder] = useState<{ entries: Entry[]; cursor: string | null }>();
  const more = useAction();
  const filter = { ...(actor ? { actor } : {}), ...(action ? { action } : {}) };
  const first = useLoad(async () => {
    setOlder(undefined);
    const [page, members, connections] = await Promise.all([
      call(
        api.GET('/console/api/orgs/{org}/audit', {
          params: { path: { org }, query: { limit: 50, ...filter } },
        }),
      ),
      call(api.GET('/console/api/orgs/{org}/members', { params: { path: { org } } })),
      // Names of connections, for entries about one; the log reads without them.
      call(api.GET('/console/api/orgs/{org}/connections', { params: { path: { org } } })).catch(() => []),
    ]);
    return { page, members, connections };
  }, [org, actor, action]);
  if (!isAdmin(workspace.role))
    return <p class="muted">Only owners and admins of {workspace.name} read its audit log.</p>;
  return (
    <>
      <div class="row">
        <div>
          <label for="filter-actor">Actor</label>
          <select id="filter-actor" value={actor} onChange={(e) => setActor(e.currentTarget.value)}>
            <option value="">Anyone</option>
            {(first.data?.members ?? []).map((member) => (
              <option key={member.user_id} value={member.user_id}>
                {member.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="filter-action">Action</label>
          <select id="filter-action" value={action} onChange={(e) => setAction(e.currentTarget.value)}>
            <option value="">Any action</option>
            {AUDIT_ACTIONS.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
      </div>
      <Loading state={first}>
        {({ page, members, connections }) => {
          const names = new Map<string, string>([
            ...members.map((member): [string, string] => [member.user_id, member.name]),
            ...connections.map((connection): [string, string] => [connection.id, connection.name]),
          ]);
          const nameOf = (id: string) => names.get(id);
          const who = (entry: Entry) =>
            entry.actor.type === 'system'
              ? 'Outpost'
              : (names.get(entry.actor.id ?? '') ?? entry.actor.id ?? 'unknown');
          const entries = [...page.entries, ...(older?.entries ?? [])];
          const cursor = older ? older.cursor : page.next_cursor;
          return (
            <>
              <p class="muted small" role="status">
                {entries.length === 0
                  ? 'No entry matches.'
                  : `${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}${cursor ? '; older ones below' : ''}.`}
              </p>
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
                        {entry.source_address ? (
                          <div class="muted small">from {entry.source_address}</div>
                        ) : null}
                      </>
                    ),
                  },
                  { header: 'Action', cell: (entry) => <code class="small">{entry.action}</code> },
                ]}
              />
              {cursor ? (
                <button
                  type="button"
                  disabled={more.busy}
                  onClick={() =>
                    more.run(async () => {
                      const next = await call(
                        api.GET('/console/api/orgs/{org}/audit', {
                          params: { path: { org }, query: { cursor, limit: 50, ...filter } },
                        }),
                      );
                      setOlder({
                        entries: [...(older?.entries ?? []), ...next.entries],
                        cursor: next.next_cursor,
                      });
                    })
                  }
                >
                  Load older entries
                </button>
              ) : null}
              <ErrorText message={more.error} />
            </>
          );
        }}
      </Loading>
    </>
  );
}
