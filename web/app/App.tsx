import { useEffect, useState } from 'preact/hooks';
import { ApiError, client, ok, postAuth, whenSignedOut } from './api';
import { feed, useFeedState } from './events';
import { href, useRoute } from './router';
import { SessionView } from './views/SessionView';
import { SessionsView } from './views/SessionsView';
import { McpView } from './views/McpView';
import { ModelsView } from './views/ModelsView';
import { ServerView } from './views/ServerView';
import { SignIn } from './views/SignIn';

type Gate =
  { state: 'checking' } | { state: 'signed-in' } | { state: 'signed-out' } | { state: 'down'; error: string };

/** The instance web app: a sign-in gate, then the sessions, a session, and the server page. */
export function App() {
  const [gate, setGate] = useState<Gate>({ state: 'checking' });

  const check = () =>
    ok(client.GET('/api/info'))
      .then(() => setGate({ state: 'signed-in' }))
      .catch((error: ApiError) => {
        if (error.status !== 401) setGate({ state: 'down', error: error.message });
      });

  useEffect(() => {
    whenSignedOut(() => {
      feed.stop();
      setGate({ state: 'signed-out' });
    });
    void check();
  }, []);

  useEffect(() => {
    if (gate.state === 'signed-in') feed.start();
  }, [gate.state]);

  if (gate.state === 'checking') {
    return (
      <main class="app-loading" aria-busy="true">
        <p class="muted">Loading Outpost…</p>
      </main>
    );
  }
  if (gate.state === 'signed-out') return <SignIn onSignedIn={() => setGate({ state: 'signed-in' })} />;
  if (gate.state === 'down') {
    return (
      <main class="message-page">
        <div class="panel">
          <h1>Outpost cannot be reached</h1>
          <p class="error" role="alert">
            {gate.error}
          </p>
          <button type="button" onClick={() => void check()}>
            Try again
          </button>
        </div>
      </main>
    );
  }
  return <Shell />;
}

function Shell() {
  const route = useRoute();
  const live = useFeedState();
  useEffect(() => {
    document.title =
      route.name === 'server'
        ? 'Server · Outpost'
        : route.name === 'sessions'
          ? 'Sessions · Outpost'
          : route.name === 'models'
            ? 'Models · Outpost'
            : route.name === 'mcp'
              ? 'MCP servers · Outpost'
              : 'Outpost';
  }, [route]);
  const signOut = async () => {
    await postAuth('/auth/sign-out').catch(() => undefined);
    location.reload();
  };
  return (
    <div class="shell">
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <a class="brand" href="#/">
          Outpost
        </a>
        <nav aria-label="Main">
          <a href={href({ name: 'sessions' })} aria-current={route.name === 'sessions' ? 'page' : undefined}>
            Sessions
          </a>
          <a href={href({ name: 'models' })} aria-current={route.name === 'models' ? 'page' : undefined}>
            Models
          </a>
          <a href={href({ name: 'mcp' })} aria-current={route.name === 'mcp' ? 'page' : undefined}>
            MCP
          </a>
          <a href={href({ name: 'server' })} aria-current={route.name === 'server' ? 'page' : undefined}>
            Server
          </a>
        </nav>
        <span class={`feed feed-${live}`} role="status" title="Live updates">
          {live === 'live' ? 'Live' : live === 'connecting' ? 'Connecting…' : 'Reconnecting…'}
        </span>
        <button type="button" class="secondary small" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        {route.name === 'sessions' && <SessionsView />}
        {route.name === 'session' && <SessionView key={route.id} id={route.id} />}
        {route.name === 'server' && <ServerView />}
        {route.name === 'models' && <ModelsView />}
        {route.name === 'mcp' && <McpView />}
        {route.name === 'not-found' && (
          <div class="panel">
            <h1>Nothing here</h1>
            <p>
              <a href="#/">Back to the sessions</a>
            </p>
          </div>
        )}
      </main>
    </div>
  );
}
