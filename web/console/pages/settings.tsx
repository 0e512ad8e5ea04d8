import { useState } from 'preact/hooks';
import { api, call, day, inOrg, isAdmin, type Schemas } from '../api';
import type { PageProps } from '../main';
import { ConfirmButton, ErrorText, Loading, Notice, useAction, useLoad } from '../ui';

type Config = Schemas['WorkspaceConfigDto'];
type Provider = {
  name?: string;
  models?: Record<string, { name?: string }>;
  settings?: { baseURL?: string };
};

/** A JSON editor for one member of the config; the API's validation message is shown as it comes. */
function JsonSection(props: {
  id: string;
  title: string;
  help: string;
  save: string;
  value: unknown;
  editable: boolean;
  onSave: (value: unknown) => Promise<unknown>;
}) {
  const [text, setText] = useState(() => JSON.stringify(props.value ?? null, null, 2));
  const [invalid, setInvalid] = useState<string>();
  const [saved, setSaved] = useState<string>();
  const action = useAction();
  return (
    <section class="panel" aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      <p class="muted small">{props.help}</p>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          setSaved(undefined);
          let value: unknown;
          try {
            value = JSON.parse(text);
          } catch (error) {
            return setInvalid(`This is not valid JSON: ${(error as Error).message}`);
          }
          setInvalid(undefined);
          if (await action.run(() => props.onSave(value))) setSaved('Saved.');
        }}
      >
        <label for={`${props.id}-json`}>{props.title} (JSON)</label>
        <textarea
          id={`${props.id}-json`}
          rows={8}
          readOnly={!props.editable}
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
        />
        {props.editable ? (
          <button type="submit" disabled={action.busy}>
            {props.save}
          </button>
        ) : null}
      </form>
      <ErrorText message={invalid ?? action.error} />
      <Notice message={saved} />
    </section>
  );
}

function Connections({ org }: { org: string }) {
  const list = useLoad(
    () => call(api.GET('/console/api/orgs/{org}/connections', { params: { path: { org } } })),
    [org],
  );
  const [form, setForm] = useState({
    name: '',
    base_url: '',
    schema: 'openai-chat',
    credential: '',
    models: '',
  });
  const action = useAction();
  const field = (name: keyof typeof form) => ({
    id: `conn-${name}`,
    value: form[name],
    onInput: (e: { currentTarget: { value: string } }) => setForm({ ...form, [name]: e.currentTarget.value }),
  });
  return (
    <section class="panel" aria-labelledby="connections">
      <h2 id="connections">Bring-your-own-key connections</h2>
      <p class="muted small">
        A provider account of the workspace. Its credential is write-only: only its last four characters are
        ever shown.
      </p>
      <Loading state={list}>
        {(connections) =>
          connections.length === 0 ? (
            <p class="muted">No connection yet.</p>
          ) : (
            <div class="scroll">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">API</th>
                    <th scope="col">Models</th>
                    <th scope="col">Credential</th>
                    <th scope="col">Added</th>
                    <th scope="col">
                      <span class="sr">Action</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {connections.map((connection) => (
                    <tr key={connection.id}>
                      <td data-label="Name">
                        {connection.name}
                        <div class="muted small">{connection.inference_url}</div>
                      </td>
                      <td data-label="API">
                        {connection.schema} <div class="muted small">{connection.base_url}</div>
                      </td>
                      <td data-label="Models">{Object.keys(connection.models).join(', ')}</td>
                      <td data-label="Credential">
                        {connection.auth.credential_last4 ? `…${connection.auth.credential_last4}` : 'hidden'}
                      </td>
                      <td data-label="Added">{day(connection.created_at)}</td>
                      <td>
                        <ConfirmButton
                          label="Delete"
                          ariaLabel={`Delete connection ${connection.name}`}
                          question={`Delete ${connection.name} and its credential?`}
                          confirm="Yes, delete"
                          onConfirm={() =>
                            action.run(async () => {
                              await call(
                                api.DELETE('/console/api/orgs/{org}/connections/{id}', {
                                  params: { path: { org, id: connection.id } },
                                }),
                              );
                              list.reload();
                            })
                          }
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Loading>
      <h3>Add a connection</h3>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          const models = Object.fromEntries(
            form.models
              .split(',')
              .map((model) => model.trim())
              .filter(Boolean)
              .map((model) => [model, { name: model }]),
          );
          const ok = await action.run(() =>
            call(
              api.POST('/console/api/orgs/{org}/connections', {
                params: { path: { org } },
                body: {
                  name: form.name.trim(),
                  base_url: form.base_url.trim(),
                  schema: form.schema as Schemas['CreateConnectionDto']['schema'],
                  auth: { mode: 'bearer', credential: form.credential },
                  models,
                },
              }),
            ),
          );
          if (ok) {
            setForm({ name: '', base_url: '', schema: 'openai-chat', credential: '', models: '' });
            list.reload();
          }
        }}
      >
        <div class="row">
          <div>
            <label for="conn-name">Name</label>
            <input type="text" required {...field('name')} />
          </div>
          <div>
            <label for="conn-base_url">Base URL</label>
            <input type="url" required placeholder="https://api.openai.com/v1" {...field('base_url')} />
          </div>
          <div>
            <label for="conn-schema">API</label>
            <select
              {...field('schema')}
              onChange={(e) => setForm({ ...form, schema: e.currentTarget.value })}
            >
              <option value="openai-chat">OpenAI chat completions</option>
              <option value="openai-responses">OpenAI Responses</option>
              <option value="anthropic">Anthropic messages</option>
            </select>
          </div>
          <div>
            <label for="conn-credential">API key (write-only)</label>
            <input type="password" required autoComplete="off" {...field('credential')} />
          </div>
          <div>
            <label for="conn-models">Models (comma-separated)</label>
            <input type="text" required {...field('models')} />
          </div>
          <button type="submit" disabled={action.busy}>
            Add connection
          </button>
        </div>
      </form>
      <ErrorText message={action.error} />
    </section>
  );
}

export function SettingsPage({ workspace }: PageProps) {
  const org = workspace.id;
  const admin = isAdmin(workspace.role);
  const config = useLoad(() => call(api.GET('/console/api/v2/config', { params: inOrg(org) })), [org]);
  const save = (change: Partial<Config>) =>
    call(
      api.PUT('/console/api/orgs/{org}/config', { params: { path: { org } }, body: change as Config }),
    ).then(() => config.reload());
  return (
    <Loading state={config}>
      {(current) => {
        const providers = Object.entries((current.providers ?? {}) as Record<string, Provider>);
        return (
          <>
            {admin ? null : (
              <p class="muted">
                You can read the settings of {workspace.name}; owners and admins change them.
              </p>
            )}
            <section class="panel" aria-labelledby="providers">
              <h2 id="providers">Providers and models</h2>
              {providers.length === 0 ? (
                <p class="muted">No provider is configured for this workspace.</p>
              ) : (
                <div class="scroll">
                  <table>
                    <thead>
                      <tr>
                        <th scope="col">Provider</th>
                        <th scope="col">Base URL</th>
                        <th scope="col">Models</th>
                      </tr>
                    </thead>
                    <tbody>
                      {providers.map(([id, provider]) => (
                        <tr key={id}>
                          <td data-label="Provider">{provider.name ?? id}</td>
                          <td data-label="Base URL">{provider.settings?.baseURL ?? '—'}</td>
                          <td data-label="Models">
                            {Object.entries(provider.models ?? {})
                              .map(([model, info]) => info.name ?? model)
                              .join(', ')}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </section>
            <JsonSection
              key={`policies-${org}`}
              id="policies"
              title="Policies"
              save="Save policies"
              help='Statements evaluated in order, e.g. [{ "action": "provider.use", "effect": "deny", "resource": "openai/*" }].'
              value={current.policies ?? []}
              editable={admin}
              onSave={(policies) => save({ policies: policies as Config['policies'] })}
            />
            <JsonSection
              key={`websearch-${org}`}
              id="websearch"
              title="Web search"
              save="Save web search"
              help='{ "providerID": "…" } to offer hosted web search to members; null to turn it off.'
              value={current.websearch ?? null}
              editable={admin}
              onSave={(websearch) => save({ websearch: websearch as Config['websearch'] })}
            />
            <JsonSection
              key={`mcp-${org}`}
              id="mcp"
              title="MCP servers"
              save="Save MCP servers"
              help='{ "servers": { "<name>": { "url": "https://…" } } }; null to remove.'
              value={current.mcp ?? null}
              editable={admin}
              onSave={(mcp) => save({ mcp: mcp as Config['mcp'] })}
            />
            {admin ? <Connections org={org} /> : null}
          </>
        );
      }}
    </Loading>
  );
}
