import type { ComponentChildren, JSX } from 'preact';
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

/** One row of a list form: its inputs, Remove (when the reader may edit), and the message about it. */
function ListRow(props: {
  label: string;
  id: string;
  message?: string;
  editable: boolean;
  onRemove: () => void;
  children: ComponentChildren;
}) {
  return (
    <div role="group" aria-label={props.label}>
      <div class="row">
        {props.children}
        {props.editable ? (
          <button
            type="button"
            class="secondary"
            aria-label={`Remove ${props.label.replace(/^[A-Z](?=[a-z])/, (c) => c.toLowerCase())}`}
            onClick={props.onRemove}
          >
            Remove
          </button>
        ) : null}
      </div>
      <FieldError id={props.id} message={props.message} />
    </div>
  );
}

/** The end of a list form, for those who may edit: "Add …", then `Foot`. */
function ListEnd(props: { add: string; onAdd: () => void } & Parameters<typeof Foot>[0]) {
  const { add, onAdd, ...foot } = props;
  return (
    <>
      <button type="button" class="secondary" onClick={onAdd}>
        {add}
      </button>{' '}
      <Foot {...foot} />
    </>
  );
}

const EFFECTS: Array<[Policy['effect'], string]> = [
  ['deny', 'Deny'],
  ['allow', 'Allow'],
];
const ACTIONS: Array<[Policy['action'], string]> = [
  ['provider.use', 'Using a provider or model'],
  ['permission', 'A tool permission'],
];

/** The inputs of one policy: effect, what and which. */
function PolicyFields(props: {
  row: Policy;
  id: string;
  message?: string;
  editable: boolean;
  onChange: (change: Partial<Policy>) => void;
}) {
  const { row, id } = props;
  const select = <K extends 'effect' | 'action'>(
    field: K,
    label: string,
    options: Array<[Policy[K], string]>,
  ) => (
    <div>
      <label for={`${id}-${field}`}>{label}</label>
      <select
        id={`${id}-${field}`}
        value={row[field]}
        disabled={!props.editable}
        onChange={(e) => props.onChange({ [field]: e.currentTarget.value })}
      >
        {options.map(([value, words]) => (
          <option key={value} value={value}>
            {words}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <>
      {select('effect', 'Effect', EFFECTS)}
      {select('action', 'What', ACTIONS)}
      <div>
        <label for={`${id}-resource`}>Which (pattern)</label>
        <input
          id={`${id}-resource`}
          type="text"
          placeholder="openai/*"
          value={row.resource}
          readOnly={!props.editable}
          onInput={(e) => props.onChange({ resource: e.currentTarget.value })}
          {...describedBy(id, props.message)}
        />
      </div>
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
      {rows.map((row, index) => (
        <ListRow
          key={index}
          label={`Policy ${index + 1}`}
          id={`policy-${index}`}
          message={form.at(`policies.${index}`)}
          editable={props.editable}
          onRemove={() => setRows(rows.filter((_, i) => i !== index))}
        >
          <PolicyFields
            row={row}
            id={`policy-${index}`}
            message={form.at(`policies.${index}`)}
            editable={props.editable}
            onChange={(change) => set(index, change)}
          />
        </ListRow>
      ))}
      {props.editable ? (
        <ListEnd
          add="Add a policy"
          onAdd={() => setRows([...rows, { action: 'provider.use', effect: 'deny', resource: '' }])}
          busy={form.busy}
          label="Save policies"
          rest={form.rest}
          saved={saved}
        />
      ) : null}
    </form>
  );
}

/** Hosted web search: off, or through one of the workspace's providers. */
export function WebSearchForm(props: {
  value: { providerID: string } | null;
  /** The search providers to choose from: `[id, name]`. */
  providers: Array<[string, string]>;
  editable: boolean;
  onSave: (value: { providerID: string } | null) => Promise<unknown>;
}) {
  const [provider, setProvider] = useState(props.value?.providerID ?? '');
  const [saved, setSaved] = useState<string>();
  const form = useFormAction(['websearch']);
  const known = props.providers.some(([id]) => id === provider);
  const choices: Array<[string, string]> =
    provider && !known ? [[provider, provider], ...props.providers] : props.providers;
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
        {choices.map(([id, name]) => (
          <option key={id} value={id}>
            Through {name}
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
        const input = (field: 'name' | 'url', label: string, extra: JSX.IntrinsicElements['input']) => (
          <div>
            <label for={`${id}-${field}`}>{label}</label>
            <input
              id={`${id}-${field}`}
              {...extra}
              value={row[field]}
              readOnly={!props.editable}
              onInput={(e) => set(index, { [field]: e.currentTarget.value })}
              {...describedBy(id, message)}
            />
          </div>
        );
        return (
          <ListRow
            key={index}
            label={`MCP server ${index + 1}`}
            id={id}
            message={message}
            editable={props.editable}
            onRemove={() => setRows(rows.filter((_, i) => i !== index))}
          >
            {input('name', 'Name', { type: 'text' })}
            {input('url', 'URL', { type: 'url', placeholder: 'https://mcp.example.com/mcp' })}
          </ListRow>
        );
      })}
      {props.editable ? (
        <ListEnd
          add="Add an MCP server"
          onAdd={() => setRows([...rows, { name: '', url: '', rest: {} }])}
          busy={form.busy}
          label="Save MCP servers"
          rest={form.rest}
          saved={saved}
        />
      ) : null}
    </form>
  );
}
