import { useState } from 'preact/hooks';
import type { Schemas } from '../../api';
import { describedBy, FieldError, useFormAction } from '../../field-errors';
import { Notice } from '../../ui';

type Policy = Schemas['PolicyStatementDto'];
type McpServers = Record<string, Record<string, unknown>>;

/** The save button, the error no field shows, and "Saved." */
function Foot(props: { busy: boolean; label: string; rest?: string; saved?: string }) {
  return (
    <>
      {props.rest ? (
        <p class="error" role="alert">
          {props.rest}
        </p>
      ) : null}
      <button type="submit" disabled={props.busy}>
        {props.label}
      </button>
      <Notice message={props.saved} />
    </>
  );
}

/** Policies as rows: what (use a provider, a permission), which (a pattern), allow or deny; in order. */
export function PoliciesForm(props: {
  value: Policy[];
  editable: boolean;
  onSave: (value: Policy[]) => Promise<unknown>;
}) {
  const [rows, setRows] = useState<Policy[]>(props.value);
  const [saved, setSaved] = useState<string>();
  const form = useFormAction(rows.map((_, i) => `policies.${i}`));
  const set = (index: number, change: Partial<Policy>) =>
    setRows(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  return (
    <form
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        setSaved(undefined);
        const empty = rows.findIndex((row) => !row.resource.trim());
        if (empty >= 0)
          return form.refuse(`policies.${empty}`, 'Say which providers or permissions, e.g. openai/*.');
        if (
          await form.run(() => props.onSave(rows.map((row) => ({ ...row, resource: row.resource.trim() }))))
        )
          setSaved('Saved.');
      }}
    >
      {rows.length === 0 ? <p class="muted">No policy: members may use every provider and model.</p> : null}
      {rows.map((row, index) => {
        const id = `policy-${index}`;
        const message = form.at(`policies.${index}`);
        return (
          <div key={index} role="group" aria-label={`Policy ${index + 1}`}>
            <div class="row">
              <div>
                <label for={`${id}-effect`}>Effect</label>
                <select
                  id={`${id}-effect`}
                  value={row.effect}
                  disabled={!props.editable}
                  onChange={(e) => set(index, { effect: e.currentTarget.value as Policy['effect'] })}
                >
                  <option value="deny">Deny</option>
                  <option value="allow">Allow</option>
                </select>
              </div>
              <div>
                <label for={`${id}-action`}>What</label>
                <select
                  id={`${id}-action`}
                  value={row.action}
                  disabled={!props.editable}
                  onChange={(e) => set(index, { action: e.currentTarget.value as Policy['action'] })}
                >
                  <option value="provider.use">Using a provider or model</option>
                  <option value="permission">A tool permission</option>
                </select>
              </div>
              <div>
                <label for={`${id}-resource`}>Which (pattern)</label>
                <input
                  id={`${id}-resource`}
                  type="text"
                  placeholder="openai/*"
                  value={row.resource}
                  readOnly={!props.editable}
                  onInput={(e) => set(index, { resource: e.currentTarget.value })}
                  {...describedBy(id, message)}
                />
              </div>
              {props.editable ? (
                <button
                  type="button"
                  class="secondary"
                  aria-label={`Remove policy ${index + 1}`}
                  onClick={() => setRows(rows.filter((_, i) => i !== index))}
                >
                  Remove
                </button>
              ) : null}
            </div>
            <FieldError id={id} message={message} />
          </div>
        );
      })}
      {props.editable ? (
        <>
          <button
            type="button"
            class="secondary"
            onClick={() => setRows([...rows, { action: 'provider.use', effect: 'deny', resource: '' }])}
          >
            Add a policy
          </button>{' '}
          <Foot busy={form.busy} label="Save policies" rest={form.rest} saved={saved} />
        </>
      ) : null}
    </form>
  );
}

/** Hosted web search: off, or through one of the workspace's providers. */
export function WebSearchForm(props: {
  value: { providerID: string } | null;
  providers: string[];
  editable: boolean;
  onSave: (value: { providerID: string } | null) => Promise<unknown>;
}) {
  const [provider, setProvider] = useState(props.value?.providerID ?? '');
  const [saved, setSaved] = useState<string>();
  const form = useFormAction(['websearch']);
  const choices =
    provider && !props.providers.includes(provider) ? [provider, ...props.providers] : props.providers;
  return (
    <form
      onSubmit={async (event) => {
        event.preventDefault();
        setSaved(undefined);
        if (await form.run(() => props.onSave(provider ? { providerID: provider } : null)))
          setSaved('Saved.');
      }}
    >
      <label for="websearch-provider">Web search for members</label>
      <select
        id="websearch-provider"
        value={provider}
        disabled={!props.editable}
        onChange={(e) => setProvider(e.currentTarget.value)}
        {...describedBy('websearch-provider', form.at('websearch'))}
      >
        <option value="">Off</option>
        {choices.map((id) => (
          <option key={id} value={id}>
            Through {id}
          </option>
        ))}
      </select>
      <FieldError id="websearch-provider" message={form.at('websearch')} />
      {props.editable ? (
        <Foot busy={form.busy} label="Save web search" rest={form.rest} saved={saved} />
      ) : null}
    </form>
  );
}

/** Remote MCP servers offered to members: a name and a URL each (headers and the rest in the JSON view). */
export function McpForm(props: {
  value: { servers: McpServers } | null;
  editable: boolean;
  onSave: (value: { servers: McpServers } | null) => Promise<unknown>;
}) {
  const [rows, setRows] = useState(() =>
    Object.entries(props.value?.servers ?? {}).map(([name, server]) => ({
      name,
      url: String(server.url ?? ''),
      rest: server,
    })),
  );
  const [saved, setSaved] = useState<string>();
  const form = useFormAction(rows.map((row) => `mcp.servers.${row.name.trim()}`));
  const set = (index: number, change: Partial<(typeof rows)[number]>) =>
    setRows(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  return (
    <form
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        setSaved(undefined);
        const unnamed = rows.find((row) => !row.name.trim());
        if (unnamed) return form.refuse('mcp.servers.', 'Give every server a name, e.g. docs.');
        const servers = Object.fromEntries(
          rows.map((row) => [row.name.trim(), { ...row.rest, type: 'remote', url: row.url.trim() }]),
        );
        const value = rows.length ? { servers } : null;
        if (await form.run(() => props.onSave(value))) setSaved('Saved.');
      }}
    >
      {rows.length === 0 ? <p class="muted">No MCP server.</p> : null}
      {rows.map((row, index) => {
        const id = `mcp-${index}`;
        const message = form.at(`mcp.servers.${row.name.trim()}`);
        return (
          <div key={index} role="group" aria-label={`MCP server ${index + 1}`}>
            <div class="row">
              <div>
                <label for={`${id}-name`}>Name</label>
                <input
                  id={`${id}-name`}
                  type="text"
                  value={row.name}
                  readOnly={!props.editable}
                  onInput={(e) => set(index, { name: e.currentTarget.value })}
                  {...describedBy(id, message)}
                />
              </div>
              <div>
                <label for={`${id}-url`}>URL</label>
                <input
                  id={`${id}-url`}
                  type="url"
                  placeholder="https://mcp.example.com/mcp"
                  value={row.url}
                  readOnly={!props.editable}
                  onInput={(e) => set(index, { url: e.currentTarget.value })}
                  {...describedBy(id, message)}
                />
              </div>
              {props.editable ? (
                <button
                  type="button"
                  class="secondary"
                  aria-label={`Remove MCP server ${index + 1}`}
                  onClick={() => setRows(rows.filter((_, i) => i !== index))}
                >
                  Remove
                </button>
              ) : null}
            </div>
            <FieldError id={id} message={message} />
          </div>
        );
      })}
      {props.editable ? (
        <>
          <button
            type="button"
            class="secondary"
            onClick={() => setRows([...rows, { name: '', url: '', rest: {} }])}
          >
            Add an MCP server
          </button>{' '}
          <Foot busy={form.busy} label="Save MCP servers" rest={form.rest} saved={saved} />
        </>
      ) : null}
    </form>
  );
}
