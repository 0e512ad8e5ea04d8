import { useState } from 'preact/hooks';

/** The console's own MCP server as the workspace config lists it (`mcp.servers.outpost`). */
export interface ConsoleMcpServer {
  url: string;
  headers?: Record<string, string>;
}

/**
 * The server's entry for an opencode.json of someone not signed in to the console: a key from the Keys page, which
 * belongs to its workspace (so no `x-org-id`).
 */
export function opencodeSnippet(server: ConsoleMcpServer): string {
  const entry = {
    type: 'remote',
    url: server.url,
    oauth: false,
    headers: { Authorization: 'Bearer {env:OUTPOST_API_KEY}' },
  };
  return JSON.stringify({ $schema: 'https://opencode.ai/config.json', mcp: { outpost: entry } }, null, 2);
}

/**
 * The console's MCP server: its address, that signed-in opencode and Outpost instances get it by themselves, and an
 * opencode.json snippet (with a key) for anyone else.
 */
export function ConsoleMcpPanel({ server }: { server: ConsoleMcpServer }) {
  const [copied, setCopied] = useState<string>();
  const snippet = opencodeSnippet(server);
  return (
    <section class="panel" aria-labelledby="console-mcp">
      <h2 id="console-mcp">The console's MCP server</h2>
      <p>
        <code data-testid="console-mcp-url">{server.url}</code>
      </p>
      <p class="muted small">
        Tools for members: <code>websearch</code> (while web search is on), <code>workspace_usage</code>{' '}
        (their spend, budget and what is left this month) and <code>workspace_models</code> (the models they
        may use, with prices). opencode and Outpost instances signed in to this console get it with no change
        to their config, as <code>outpost</code>. Anyone else adds it to opencode.json with an API key from
        the Keys page in <code>OUTPOST_API_KEY</code>:
      </p>
      <pre class="snippet" data-testid="console-mcp-snippet" tabIndex={0} aria-label="opencode.json snippet">
        {snippet}
      </pre>
      <button
        type="button"
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(snippet);
            setCopied('Copied.');
          } catch {
            setCopied('Select the text above and copy it.');
          }
        }}
      >
        Copy snippet
      </button>
      {copied ? <span role="status"> {copied}</span> : null}
    </section>
  );
}
