import { useState } from 'preact/hooks';
import { api, call, isAdmin, type Schemas, when } from '../api';
import type { PageProps } from '../main';
import { ErrorText, Loading, useAction, useLoad } from '../ui';

type Entry = Schemas['AuditEntryDto'];

/** What a detail may show: names, roles, permissions, amounts; never anything that looks like a secret. */
function detailText(details: Record<string, unknown>): string {
  return Object.entries(details)
    .filter(
      ([key, value]) =>
        !/secret|token|credential|password|key_value|hash/i.test(key) &&
        value !== null &&
        typeof value !== 'object',
    )
    .map(([key, value]) => `${key.replace(/_/g, ' ')}: ${String(value)}`)
    .join(', ');
}

export function AuditPage({ workspace }: PageProps) {
  const org = workspace.id;
  const [pages, setPages] = useState<Entry[][]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [actor, setActor] = useState('');
  const [action, setAction] = useState('');
  const more = useAction();
  const first = useLoad(async () => {
    const [page, members] = await Promise.all([
      call(api.GET('/console/api/orgs/{org}/audit', { params: { path: { org }, query: { limit: 50 } } })),
      call(api.GET('/console/api/orgs/{org}/members', { params: { path: { org } } })),
    ]);
    setPages([page.entries]);
    setCursor(page.next_cursor);
    return { members };
  }, [org]);
  if (!isAdmin(workspace.role))
    return <p class="muted">Only owners and admins of {workspace.name} read its audit log.</p>;
  return (
    <Loading state={first}>
      {({ members }) => {
        const names = new Map(members.map((member) => [member.user_id, member.name]));
        const who = (entry: Entry) =>
          entry.actor.type === 'system'
            ? 'Outpost'
            : (names.get(entry.actor.id ?? '') ?? entry.actor.id ?? 'unknown');
        const entries = pages.flat();
        const actions = [...new Set(entries.map((entry) => entry.action))].sort();
        const actors = [...new Set(entries.map(who))].sort();
        const shown = entries.filter(
          (entry) => (!actor || who(entry) === actor) && (!action || entry.action === action),
        );
        return (
          <>
            <div class="row">
              <div>
                <label for="filter-actor">Actor</label>
                <select id="filter-actor" value={actor} onChange={(e) => setActor(e.currentTarget.value)}>
                  <option value="">Anyone</option>
                  {actors.map((name) => (
                    <option key={name} value={name}>
                      {name}
                    </option>
                  ))}
                </select>
              </div>
              <div>
                <label for="filter-action">Action</label>
                <select id="filter-action" value={action} onChange={(e) => setAction(e.currentTarget.value)}>
                  <option value="">Any action</option>
                  {actions.map((name) => (
                    <option key={name} value={name}>
                      {name}
                    </option>
                  ))}
                </select>
              </div>
            </div>
            <p class="muted small" role="status">
              {shown.length} of {entries.length} entries loaded{cursor ? '; older ones below' : ''}.
            </p>
            <div class="scroll">
              <table>
                <caption class="sr">Audit log</caption>
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Actor</th>
                    <th scope="col">Action</th>
                    <th scope="col">Target</th>
                    <th scope="col">Details</th>
                  </tr>
                </thead>
                <tbody>
                  {shown.map((entry) => (
                    <tr key={entry.id}>
                      <td>{when(entry.time)}</td>
                      <td>{who(entry)}</td>
                      <td>
                        <code>{entry.action}</code>
                      </td>
                      <td>
                        {entry.target.type} {names.get(entry.target.id) ?? entry.target.id}
                      </td>
                      <td class="small">
                        {detailText(entry.details)}
                        {entry.source_address ? <div class="muted">from {entry.source_address}</div> : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {cursor ? (
              <button
                type="button"
                disabled={more.busy}
                onClick={() =>
                  more.run(async () => {
                    const page = await call(
                      api.GET('/console/api/orgs/{org}/audit', {
                        params: { path: { org }, query: { cursor, limit: 50 } },
                      }),
                    );
                    setPages((previous) => [...previous, page.entries]);
                    setCursor(page.next_cursor);
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
  );
}
