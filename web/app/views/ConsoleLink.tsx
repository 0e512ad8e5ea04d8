import { useEffect, useState } from 'preact/hooks';
import { ApiError, client, ok } from '../api';
import type { ConsoleLinkView } from '../types';

type LinkView = ConsoleLinkView;

/** The instance's link to a console, as the server says, looked at again while a sign-in waits; `act` changes it. */
function useConsoleLink() {
  const [view, setView] = useState<LinkView | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  const load = () =>
    ok(client.GET('/api/console-link'))
      .then(setView)
      .catch((failure: ApiError) => setError(failure.message));
  useEffect(() => void load(), []);
  // While a sign-in waits for its approval, look again every two seconds.
  useEffect(() => {
    if (!view?.pending) return;
    const timer = setInterval(() => void load(), 2_000);
    return () => clearInterval(timer);
  }, [view?.pending?.userCode]);

  const act = async (work: () => Promise<LinkView>) => {
    setBusy(true);
    setError('');
    try {
      setView(await work());
    } catch (failure) {
      setError((failure as ApiError).message);
    } finally {
      setBusy(false);
    }
  };
  return { view, busy, error, act };
}

/** Where the link stands, in a sentence. */
function linkWords(link: NonNullable<LinkView['link']>): string {
  if (link.state === 'linked')
    // The workspace by its name; its id only while the console has not said the name.
    return `Signed in to ${link.console}, workspace ${link.workspaceName ?? link.workspace ?? '(none)'}.`;
  if (link.state === 'signed_out')
    return `Signed out: the console ${link.console} ended this server’s sign-in. Sign in again here, or run outpost login.`;
  return 'Not signed in to a console.';
}

/** A sign-in that waits for its approval in the console: where, and the code to check there. */
function PendingSignIn({ pending }: { pending: NonNullable<LinkView['pending']> }) {
  return (
    <div class="console-pending" role="status">
      <p>
        Open{' '}
        <a href={pending.url} target="_blank" rel="noopener noreferrer">
          the console’s approval page
        </a>{' '}
        and check that it shows the code
      </p>
      <p class="user-code" data-testid="console-user-code">
        {pending.userCode}
      </p>
      <p class="muted small">Waiting for the approval…</p>
    </div>
  );
}

/**
 * The instance's console: whether it is signed in (the workspace's providers and policies, billed to the person),
 * and signing in (a device code approved in the console, as `outpost login` does) or out.
 */
export function ConsoleLink() {
  const { view, busy, error, act } = useConsoleLink();
  const [address, setAddress] = useState('');
  const signIn = (event: Event) => {
    event.preventDefault();
    void act(() => ok(client.POST('/api/console-link/sign-in', { body: { console: address.trim() } })));
  };
  const signOut = () => void act(() => ok(client.POST('/api/console-link/sign-out')));

  const link = view?.link;
  return (
    <article class="panel" aria-labelledby="console-title">
      <h2 id="console-title">Console</h2>
      {link && <p data-testid="console-state">{linkWords(link)}</p>}
      {link?.problem && <p class="error">{link.problem}</p>}
      {link?.state === 'linked' && (
        <p class="muted small">
          Its workspace’s providers and policies apply in every location, billed to whoever approved the
          sign-in.
        </p>
      )}
      {view?.pending ? (
        <PendingSignIn pending={view.pending} />
      ) : (
        link?.state !== 'linked' && (
          <form onSubmit={signIn}>
            <label for="console-address">Console address</label>
            <div class="row">
              <input
                id="console-address"
                type="url"
                placeholder="https://outpost.example.com"
                required
                value={address}
                onInput={(e) => setAddress(e.currentTarget.value)}
              />
              <button type="submit" disabled={busy || !address.trim()}>
                Sign in to a console
              </button>
            </div>
          </form>
        )
      )}
      {view?.error && !view.pending && <p class="error">The last sign-in did not complete: {view.error}.</p>}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {(link?.state === 'linked' || link?.state === 'signed_out' || view?.pending) && (
        <div class="actions">
          <button type="button" class="secondary" disabled={busy} onClick={signOut}>
            {view?.pending && link?.state !== 'linked' ? 'Cancel' : 'Sign out of the console'}
          </button>
        </div>
      )}
    </article>
  );
}
