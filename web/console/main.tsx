import { render } from 'preact';
import { useState } from 'preact/hooks';
import { api, call, type Schemas } from './api';
import { TextField } from './field-errors';
import { AuditPage } from './pages/audit';
import { BudgetsPage } from './pages/budgets';
import { DevicesPage } from './pages/devices';
import { KeysPage } from './pages/keys';
import { MembersPage } from './pages/members';
import { RequestsPage } from './pages/requests';
import { SettingsPage } from './pages/settings';
import { UsagePage } from './pages/usage';
import { ErrorText, Loading, useAction, useLoad } from './ui';

type Workspace = Schemas['WorkspaceWithRoleDto'];
export interface PageProps {
  workspace: Workspace;
  me: Schemas['UserDto'];
}

const PAGES: Record<string, (props: PageProps) => preact.JSX.Element> = {
  keys: KeysPage,
  members: MembersPage,
  budgets: BudgetsPage,
  usage: UsagePage,
  'usage/requests': RequestsPage,
  settings: SettingsPage,
  audit: AuditPage,
  devices: DevicesPage,
};

const STORED = 'outpost.console.workspace';

/** The workspace in the address (`?org=`), else the last one chosen here, else the first. */
function chosen(workspaces: Workspace[]): Workspace | undefined {
  const wanted = new URLSearchParams(location.search).get('org') ?? localStorage.getItem(STORED);
  return workspaces.find((workspace) => workspace.id === wanted) ?? workspaces[0];
}

/** Links between the pages keep the workspace. */
function keepWorkspaceInLinks(org: string) {
  for (const link of document.querySelectorAll<HTMLAnchorElement>('nav.tabs a')) {
    const url = new URL(link.href);
    if (url.pathname !== '/console') url.searchParams.set('org', org);
    link.href = url.pathname + url.search;
  }
}

function WorkspaceBar(props: {
  workspaces: Workspace[];
  current?: Workspace;
  onChange: (id: string) => void;
  onCreated: (w: Schemas['WorkspaceDto']) => void;
}) {
  const [creating, setCreating] = useState(false);
  const [name, setName] = useState('');
  const action = useAction();
  return (
    <div class="row">
      {props.current ? (
        <div>
          <label for="workspace">Workspace</label>
          <select
            id="workspace"
            value={props.current.id}
            onChange={(event) => props.onChange(event.currentTarget.value)}
          >
            {props.workspaces.map((workspace) => (
              <option value={workspace.id} key={workspace.id}>
                {workspace.name} ({workspace.role})
              </option>
            ))}
          </select>
        </div>
      ) : (
        <p>You are not a member of any workspace yet.</p>
      )}
      {creating ? (
        <form
          class="row"
          onSubmit={async (event) => {
            event.preventDefault();
            let created: Schemas['WorkspaceDto'] | undefined;
            const ok = await action.run(async () => {
              created = await call(api.POST('/console/api/orgs', { body: { name: name.trim() } }));
            });
            if (ok && created) {
              setCreating(false);
              setName('');
              props.onCreated(created);
            }
          }}
        >
          <TextField
            id="new-workspace"
            label="New workspace name"
            value={name}
            onValue={setName}
            input={{ required: true, maxLength: 200 }}
          />
          <button type="submit" disabled={action.busy}>
            Create workspace
          </button>
          <button type="button" class="secondary" onClick={() => setCreating(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <button type="button" class="secondary" onClick={() => setCreating(true)}>
          New workspace
        </button>
      )}
      <ErrorText message={action.error} />
    </div>
  );
}

function App({ page }: { page: string }) {
  const [selected, setSelected] = useState<string>();
  const state = useLoad(
    async () => ({
      me: await call(api.GET('/console/api/user')),
      workspaces: await call(api.GET('/console/api/orgs')),
    }),
    [],
  );
  const Page = PAGES[page] ?? KeysPage;
  return (
    <Loading state={state}>
      {({ me, workspaces }) => {
        const current = workspaces.find((workspace) => workspace.id === selected) ?? chosen(workspaces);
        const choose = (id: string) => {
          const url = new URL(location.href);
          url.searchParams.set('org', id);
          history.replaceState(null, '', url.pathname + url.search);
          setSelected(id);
        };
        const bar = (
          <WorkspaceBar
            workspaces={workspaces}
            current={current}
            onChange={choose}
            onCreated={(created) => {
              state.reload();
              choose(created.id);
            }}
          />
        );
        if (!current) return bar;
        localStorage.setItem(STORED, current.id);
        keepWorkspaceInLinks(current.id);
        return (
          <>
            {bar}
            <Page key={current.id} workspace={current} me={me} />
          </>
        );
      }}
    </Loading>
  );
}

const root = document.getElementById('app')!;
render(<App page={root.dataset.page ?? 'keys'} />, root);
