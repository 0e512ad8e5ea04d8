import { useState } from 'preact/hooks';
import { api, call, inOrg, isAdmin, type Schemas } from '../api';
import type { PageProps } from '../main';
import { Loading, useLoad } from '../ui';
import { Connections } from './settings/connections';
import { AdvancedJson } from './settings/json';
import { McpForm, PoliciesForm, WebSearchForm } from './settings/policies';
import { type Providers, ProvidersSection } from './settings/providers';

type Config = Schemas['WorkspaceConfigDto'];

/** The workspace config as forms (providers and models, policies, web search, MCP), each with its JSON as "advanced". */
export function SettingsPage({ workspace }: PageProps) {
  const org = workspace.id;
  const admin = isAdmin(workspace.role);
  const config = useLoad(() => call(api.GET('/console/api/v2/config', { params: inOrg(org) })), [org]);
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
        const version = JSON.stringify(current);
        return (
          <>
            {admin ? null : (
              <p class="muted">
                You can read the settings of {workspace.name}; owners and admins change them.
              </p>
            )}
            <ProvidersSection
              key={`providers-${org}-${jsonSaves}`}
              providers={providers}
              editable={admin}
              onSave={(next) => save({ providers: next })}
              advanced={
                <AdvancedJson
                  key={`providers-json-${org}-${version}`}
                  id="providers-json"
                  title="Providers"
                  save="Save providers as JSON"
                  help='{ "<id>": { "name", "env": ["KEY_VARIABLE"], "package": "aisdk:…", "settings": { "baseURL" }, "headers", "models": { "<model>": { "name", "cost", "limit" } } } }; keys only as {env:NAME}.'
                  value={providers}
                  editable={admin}
                  onSave={(next) => saveJson({ providers: next as Providers })}
                />
              }
            />
            <section class="panel" aria-labelledby="policies">
              <h2 id="policies">Policies</h2>
              <p class="muted small">Checked in order; the first that matches decides.</p>
              <PoliciesForm
                key={`policies-${org}-${jsonSaves}`}
                value={current.policies ?? []}
                editable={admin}
                onSave={(policies) => save({ policies })}
              />
              <AdvancedJson
                key={`policies-json-${org}-${version}`}
                id="policies-json"
                title="Policies"
                save="Save policies as JSON"
                help='Statements evaluated in order, e.g. [{ "action": "provider.use", "effect": "deny", "resource": "openai/*" }].'
                value={current.policies ?? []}
                editable={admin}
                onSave={(policies) => saveJson({ policies: policies as Config['policies'] })}
              />
            </section>
            <section class="panel" aria-labelledby="websearch">
              <h2 id="websearch">Web search</h2>
              <WebSearchForm
                key={`websearch-${org}-${jsonSaves}`}
                value={current.websearch ?? null}
                providers={Object.keys(providers)}
                editable={admin}
                onSave={(websearch) => save({ websearch: websearch as Config['websearch'] })}
              />
              <AdvancedJson
                key={`websearch-json-${org}-${version}`}
                id="websearch-json"
                title="Web search"
                save="Save web search as JSON"
                help='{ "providerID": "…" } to offer hosted web search to members; null to turn it off.'
                value={current.websearch ?? null}
                editable={admin}
                onSave={(websearch) => saveJson({ websearch: websearch as Config['websearch'] })}
              />
            </section>
            <section class="panel" aria-labelledby="mcp">
              <h2 id="mcp">MCP servers</h2>
              <McpForm
                key={`mcp-${org}-${jsonSaves}`}
                value={(current.mcp ?? null) as { servers: Record<string, Record<string, unknown>> } | null}
                editable={admin}
                onSave={(mcp) => save({ mcp: mcp as Config['mcp'] })}
              />
              <AdvancedJson
                key={`mcp-json-${org}-${version}`}
                id="mcp-json"
                title="MCP servers"
                save="Save MCP servers as JSON"
                help='{ "servers": { "<name>": { "url": "https://…" } } }; null to remove.'
                value={current.mcp ?? null}
                editable={admin}
                onSave={(mcp) => saveJson({ mcp: mcp as Config['mcp'] })}
              />
            </section>
            {admin ? <Connections org={org} /> : null}
          </>
        );
      }}
    </Loading>
  );
}
