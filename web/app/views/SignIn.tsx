import { useState } from 'preact/hooks';
import { ApiError, postAuth } from '../api';

/** The server password, typed once: the server sets the same cookie a pairing link does. */
export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      await postAuth('/auth/sign-in', { password });
      onSignedIn();
    } catch (failure) {
      setError(
        (failure as ApiError).status === 401
          ? 'That is not the server password.'
          : (failure as Error).message,
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="message-page">
      <form class="panel" onSubmit={(event) => void submit(event)}>
        <p class="brand">Outpost</p>
        <h1>Sign in</h1>
        <p class="muted">
          Open a pairing link from a connected device (<code>outpost pair</code> on the server), or type the
          server password.
        </p>
        <label for="password">Server password</label>
        <input
          id="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onInput={(event) => setPassword(event.currentTarget.value)}
          autoFocus
        />
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <p>
          <button type="submit" disabled={busy || !password}>
            {busy ? 'Signing in…' : 'Sign in'}
          </button>
        </p>
      </form>
    </main>
  );
}
