import { useEffect, useState } from 'preact/hooks';
import { ApiError, client, ok } from '../api';
import type { ConsoleLinkView } from '../types';

type LinkView = ConsoleLinkView;

/**
 * The instance's console: whether it is signed in (the workspace's providers and policies, billed to the person),
 * and signing in (a device code approved in the console, as `outpost login` does) or out.
 */
export function ConsoleLink() {
  const [view, setView] = useState<LinkView | null>(null);
  const [address, setAddress] = useState('');
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
  const signIn = (event: Event) => {
    event.preventDefault();
    void act(() => ok(client.POST('/api/console-link/sign-in', { body: { console: address.trim() } })));
  };
  const signOut = () => void act(() => ok(client.POST('/api/console-link/sign-out')));

  const link = view?.link;
  return (
    <article class="panel" aria-labelledby="console-title">
      <h2 id="console-title">Console</h2>
      {link && (
        <p data-testid="console-state">
          {link.state === 'linked'
            ? `Signed in to ${link.console}, workspace ${link.workspace ?? '(none)'}.`
            : link.state === 'signed_out'
              ? `Signed out: the console ${link.console} ended this server’s sign-in. Sign in again here, or run outpost login.`
              : 'Not signed in to a console.'}
        </p>
      )}
      {link?.problem && <p class="error">{link.problem}</p>}
      {link?.state === 'linked' && (
        <p class="muted small">
          Its workspace’s providers and policies apply in every location, billed to whoever approved the
          sign-in.
        </p>
      )}
      {view?.pending ? (
        <div class="console-pending" role="status">
          <p>
            Open{' '}
            <a href={view.pending.url} target="_blank" rel="noopener noreferrer">
              the console’s approval page
            </a>{' '}
            and check that it shows the code
          </p>
          <p class="user-code" data-testid="console-user-code">
            {view.pending.userCode}
          </p>
          <p class="muted small">Waiting for the approval…</p>
        </div>
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
