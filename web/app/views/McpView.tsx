import { useEffect, useState } from 'preact/hooks';
import { LabelledInput } from '../../shared/field';
import { mcpCall } from '../api';
import { shortPath } from '../format';
import { useKnownLocations } from '../locations';

/** opencode's `McpStatus`, as `GET /mcp` answers it for each server of a location. */
type McpStatus =
  | { status: 'connected' }
  | { status: 'disabled' }
  | { status: 'failed'; error: string }
  | { status: 'needs_auth' }
  | { status: 'needs_client_registration'; error: string };

const WORDS: Record<McpStatus['status'], string> = {
  connected: 'Connected',
  disabled: 'Disabled',
  failed: 'Failed',
  needs_auth: 'Needs sign-in',
  needs_client_registration: 'Needs a client id',
};

/** The code an authorization server sent back: the code itself, or the whole address it redirected to. */
function codeOf(pasted: string): string {
  const text = pasted.trim();
  try {
    return new URL(text).searchParams.get('code') ?? text;
  } catch {
    return text;
  }
}

/** Each known location's MCP servers (its config's `mcp`, a signed-in console's among them) and their status. */
export function McpView() {
  const known = useKnownLocations();
  return (
    <section class="models-page" aria-labelledby="mcp-title">
      <h1 id="mcp-title">MCP servers</h1>
      <p class="muted">
        The MCP servers of each location (its config’s <code>mcp</code>, and a signed-in console’s): their
        tools are the agent’s as <code>&lt;server&gt;_&lt;tool&gt;</code>.
      </p>
      {known.length === 0 ? <p class="muted">Loading the locations…</p> : null}
      {known.map((directory) => (
        <LocationServers key={directory} directory={directory} />
      ))}
    </section>
  );
}

function LocationServers({ directory }: { directory: string }) {
  const [servers, setServers] = useState<Record<string, McpStatus> | null>(null);
  const [error, setError] = useState('');
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    mcpCall<Record<string, McpStatus>>('GET', '', directory).then(
      (answer) => live && (setServers(answer), setError('')),
      (failure: Error) => live && setError(failure.message),
    );
    return () => {
      live = false;
    };
  }, [directory, tick]);
  const names = servers ? Object.keys(servers).sort() : [];
  const label = `MCP servers of ${shortPath(directory)}`;
  return (
    <div class="panel" role="region" aria-label={label}>
      <h2 title={directory}>{shortPath(directory)}</h2>
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
      {servers === null && !error ? <p class="muted">Loading…</p> : null}
      {servers !== null && names.length === 0 ? <p class="muted">No MCP server in this location.</p> : null}
      {names.length > 0 ? (
        <ul class="mcp-servers">
          {names.map((name) => (
            <Server
              key={name}
              name={name}
              status={servers![name]}
              directory={directory}
              onChange={() => setTick((t) => t + 1)}
            />
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function Server(props: { name: string; status: McpStatus; directory: string; onChange: () => void }) {
  const { name, status, directory } = props;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [signIn, setSignIn] = useState<string | null>(null);
  const run = async (work: () => Promise<unknown>) => {
    setBusy(true);
    setError('');
    try {
      await work();
      props.onChange();
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const path = `/${encodeURIComponent(name)}`;
  const startSignIn = () =>
    run(async () => {
      const answer = await mcpCall<{ authorizationUrl: string }>('POST', `${path}/auth`, directory);
      setSignIn(answer.authorizationUrl);
      window.open(answer.authorizationUrl, '_blank', 'noopener');
    });
  return (
    <li class="mcp-server">
      <div class="row">
        <strong>{name}</strong>
        <span class={`badge badge-${status.status}`} data-testid={`mcp-status-${name}`}>
          {WORDS[status.status]}
        </span>
        {status.status === 'connected' ? (
          <button
            type="button"
            class="secondary"
            disabled={busy}
            onClick={() => run(() => mcpCall('POST', `${path}/disconnect`, directory))}
          >
            Disconnect {name}
          </button>
        ) : null}
        {status.status === 'failed' || status.status === 'disabled' ? (
          <button
            type="button"
            disabled={busy}
            onClick={() => run(() => mcpCall('POST', `${path}/connect`, directory))}
          >
            Connect {name}
          </button>
        ) : null}
        {status.status === 'needs_auth' ? (
          <button type="button" disabled={busy} onClick={() => void startSignIn()}>
            Sign in to {name}
          </button>
        ) : null}
      </div>
      {'error' in status ? <p class="muted small">{status.error}</p> : null}
      {signIn ? (
        <SignInCode
          name={name}
          url={signIn}
          onCode={(code) =>
            run(() =>
              mcpCall('POST', `${path}/auth/callback`, directory, { code }).then(() => setSignIn(null)),
            )
          }
        />
      ) : null}
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
    </li>
  );
}

/** After the server's sign-in page: the code it sent back (or the address it redirected to), pasted here. */
function SignInCode(props: { name: string; url: string; onCode: (code: string) => void }) {
  const [pasted, setPasted] = useState('');
  const id = `mcp-code-${props.name}`;
  return (
    <form
      class="mcp-sign-in"
      aria-label={`Sign in to ${props.name}`}
      onSubmit={(event) => {
        event.preventDefault();
        if (pasted.trim()) props.onCode(codeOf(pasted));
      }}
    >
      <p class="small">
        Sign in on{' '}
        <a href={props.url} target="_blank" rel="noopener noreferrer">
          the server’s page
        </a>
        , then paste the address it sends you to (or its code) here.
      </p>
      <LabelledInput id={id} label="Address or code" value={pasted} onValue={setPasted} />
      <button type="submit">Finish signing in</button>
    </form>
  );
}
