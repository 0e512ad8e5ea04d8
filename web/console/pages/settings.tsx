import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { api, call, inOrg, isAdmin, type Schemas } from '../api';
import type { PageProps } from '../main';
import { Loading, useLoad } from '../ui';
import { Connections } from './settings/connections';
import { AdvancedJson } from './settings/json';
import { McpForm, PoliciesForm, WebSearchForm } from './settings/policies';
import { type Providers, ProvidersSection } from './settings/providers';
import { ConsoleMcpPanel, type ConsoleMcpServer } from './settings/console-mcp';
import { type SearchProvider, SearchProviders } from './settings/search-providers';

type Config = Schemas['WorkspaceConfigDto'];

/** What each part of the page saves with, and the keys that start its form and its JSON view again. */
interface Parts {
  admin: boolean;
  save: (change: Partial<Config>) => Promise<unknown>;
  saveJson: (change: Partial<Config>) => Promise<unknown>;
  /** A form's key: a save through a JSON view starts the forms again from the new config. */
  formKey: (part: string) => string;
  /** A JSON view's key: every save starts the JSON views again. */
  jsonKey: (part: string) => string;
}

type Part = 'policies' | 'websearch' | 'mcp';

const PANELS: Record<Part, { title: string; help: string; unset: unknown }> = {
  policies: {
    title: 'Policies',
    help: 'Statements evaluated in order, e.g. [{ "action": "provider.use", "effect": "deny", "resource": "openai/*" }].',
    unset: [],
  },
  websearch: {
    title: 'Web search',
    help: '{ "providerID": "…" } to offer hosted web search to members; null to turn it off.',
    unset: null,
  },
  mcp: {
    title: 'MCP servers',
    help: '{ "servers": { "<name>": { "url": "https://…" } } }; null to remove.',
    unset: null,
  },
};

/** A part of the config: its form (the children), then the same as JSON under "Advanced". */
function JsonPanel(props: { part: Part; current: Config; parts: Parts; children: ComponentChildren }) {
  const { part, parts } = props;
  const { title, help, unset } = PANELS[part];
  return (
    <section class="panel" aria-labelledby={part}>
      <h2 id={part}>{title}</h2>
      {props.children}
      <AdvancedJson
        key={parts.jsonKey(part)}
        id={`${part}-json`}
        title={title}
        help={help}
        value={props.current[part] ?? unset}
        editable={parts.admin}
        onSave={(value) => parts.saveJson({ [part]: value } as Partial<Config>)}
      />
    </section>
  );
}

function ProvidersPart({ providers, parts }: { providers: Providers; parts: Parts }) {
  return (
    <ProvidersSection
      key={parts.formKey('providers')}
      providers={providers}
      editable={parts.admin}
      onSave={(next) => parts.save({ providers: next })}
      advanced={
        <AdvancedJson
          key={parts.jsonKey('providers')}
          id="providers-json"
          title="Providers"
          help='{ "<id>": { "name", "env": ["KEY_VARIABLE"], "package": "aisdk:…", "settings": { "baseURL" }, "headers", "models": { "<model>": { "name", "cost", "limit" } } } }; keys only as {env:NAME}.'
          value={providers}
          editable={parts.admin}
          onSave={(next) => parts.saveJson({ providers: next as Providers })}
        />
      }
    />
  );
}

/** The console's own MCP server, which the config lists for every member: shown on its own, not as the admins'. */
const CONSOLE_MCP = 'outpost';

function consoleMcpOf(current: Config): ConsoleMcpServer | undefined {
  const server = (current.mcp?.servers as Record<string, ConsoleMcpServer> | undefined)?.[CONSOLE_MCP];
  return server && server.url.endsWith('/console/mcp') ? server : undefined;
}

/** The config as the admins wrote it: without the console's own MCP server (a PUT leaves it out anyway). */
function withoutConsoleMcp(current: Config): Config {
  if (!consoleMcpOf(current) || !current.mcp) return current;
  const servers = { ...(current.mcp.servers as Record<string, unknown>) };
  delete servers[CONSOLE_MCP];
  return { ...current, mcp: Object.keys(servers).length ? { ...current.mcp, servers } : undefined } as Config;
}

/** Policies, web search and MCP servers: each a form, and the same as JSON. */
function PolicyParts(props: { current: Config; searchProviders: SearchProvider[]; parts: Parts }) {
  const { searchProviders, parts } = props;
  const current = withoutConsoleMcp(props.current);
  const { admin, save } = parts;
  return (
    <>
      <JsonPanel part="policies" current={current} parts={parts}>
        <p class="muted small">Checked in order; the first that matches decides.</p>
        <PoliciesForm
          key={parts.formKey('policies')}
          value={current.policies ?? []}
          editable={admin}
          onSave={(policies) => save({ policies })}
        />
      </JsonPanel>
      <JsonPanel part="websearch" current={current} parts={parts}>
        <WebSearchForm
          key={parts.formKey('websearch')}
          value={current.websearch ?? null}
          providers={searchProviders.map((provider) => [provider.id, provider.name])}
          editable={admin}
          onSave={(websearch) => save({ websearch: websearch as Config['websearch'] })}
        />
      </JsonPanel>
      <JsonPanel part="mcp" current={current} parts={parts}>
        <McpForm
          key={parts.formKey('mcp')}
          value={(current.mcp ?? null) as { servers: Record<string, Record<string, unknown>> } | null}
          editable={admin}
          onSave={(mcp) => save({ mcp: mcp as Config['mcp'] })}
        />
      </JsonPanel>
    </>
  );
}

/** The workspace config as forms (providers and models, policies, web search, MCP), each with its JSON as "advanced". */
export function SettingsPage({ workspace }: PageProps) {
  const org = workspace.id;
  const admin = isAdmin(workspace.role);
  const config = useLoad(() => call(api.GET('/console/api/v2/config', { params: inOrg(org) })), [org]);
  // Only owners and admins may read the search providers; members see the setting's id.
  const search = useLoad(
    () =>
      admin
        ? call(api.GET('/console/api/orgs/{org}/search-providers', { params: { path: { org } } }))
        : Promise.resolve([] as SearchProvider[]),
    [org, admin],
  );
  const save = (change: Partial<Config>) =>
    call(
      api.PUT('/console/api/orgs/{org}/config', { params: { path: { org } }, body: change as Config }),
    ).then(() => config.reload());
  // A save through a JSON view starts the forms again from the new config (a form's own save keeps it, and its
  // "Saved."); the JSON views start again after every save.
  const [jsonSaves, setJsonSaves] = useState(0);
  const saveJson = (change: Partial<Config>) => save(change).then(() => setJsonSaves((n) => n + 1));
  return (
    <Loading state={config}>
      {(current) => {
        const providers = (current.providers ?? {}) as Providers;
        const consoleMcp = consoleMcpOf(current);
        const version = JSON.stringify(current);
        const parts: Parts = {
          admin,
          save,
          saveJson,
          formKey: (part) => `${part}-${org}-${jsonSaves}`,
          jsonKey: (part) => `${part}-json-${org}-${version}`,
        };
        return (
          <>
            {admin ? null : (
              <p class="muted">
                You can read the settings of {workspace.name}; owners and admins change them.
              </p>
            )}
            <ProvidersPart providers={providers} parts={parts} />
            {admin ? (
              <SearchProviders org={org} providers={search.data ?? []} onChange={search.reload} />
            ) : null}
            <PolicyParts current={current} searchProviders={search.data ?? []} parts={parts} />
            {consoleMcp ? <ConsoleMcpPanel server={consoleMcp} /> : null}
            {admin ? <Connections org={org} /> : null}
          </>
        );
      }}
    </Loading>
  );
}
