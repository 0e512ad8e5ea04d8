import { useEffect, useState } from 'preact/hooks';
import { sessionTitle } from '../format';
import { ApiError, client, of, ok } from '../api';
import { Dialog, DialogActions } from '../components/Dialog';
import { LocationChooser } from '../components/LocationChooser';
import { rememberLocation, useKnownLocations } from '../locations';
import { navigate } from '../router';
import type { SessionInfo, SessionMessageInfo } from '../types';

/** What can be done to a session from its page, each in a dialog: rename, move, delete, fork. */

function useAction(onClose: () => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError('');
    try {
      await work();
      onClose();
    } catch (failure) {
      setError((failure as ApiError).message);
      setBusy(false);
    }
  };
  const shown = error ? (
    <p class="error" role="alert">
      {error}
    </p>
  ) : null;
  return { busy, run, shown };
}

export function RenameDialog({
  session,
  onClose,
  onDone,
}: {
  session: SessionInfo;
  onClose: () => void;
  onDone: () => void;
}) {
  const [title, setTitle] = useState(session.title);
  const { busy, run, shown } = useAction(onClose);
  return (
    <Dialog title="Rename the session" onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void run(async () => {
            await ok(
              client.PATCH('/api/session/{sessionID}', { ...of(session.id), body: { title: title.trim() } }),
            );
            onDone();
          });
        }}
      >
        <label for="rename-title">Title</label>
        <input
          id="rename-title"
          type="text"
          required
          value={title}
          onInput={(e) => setTitle(e.currentTarget.value)}
        />
        {shown}
        <DialogActions action="Rename" disabled={busy || !title.trim()} onCancel={onClose} />
      </form>
    </Dialog>
  );
}

export function MoveDialog({
  session,
  onClose,
  onDone,
}: {
  session: SessionInfo;
  onClose: () => void;
  onDone: () => void;
}) {
  const known = useKnownLocations().filter((d) => d !== session.location.directory);
  const [directory, setDirectory] = useState('');
  const { busy, run, shown } = useAction(onClose);
  return (
    <Dialog title="Move the session" onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void run(async () => {
            await ok(
              client.POST('/api/session/{sessionID}/move', { ...of(session.id), body: { directory } }),
            );
            rememberLocation(directory);
            onDone();
          });
        }}
      >
        <p class="muted">
          Now in {session.location.directory}. The next turn of the agent works in the new directory.
        </p>
        <LocationChooser
          id="move-directory"
          label="New directory"
          known={known}
          value={directory}
          onChange={setDirectory}
        />
        {shown}
        <DialogActions action="Move" disabled={busy || !directory.startsWith('/')} onCancel={onClose} />
      </form>
    </Dialog>
  );
}

export function DeleteDialog({ session, onClose }: { session: SessionInfo; onClose: () => void }) {
  const [children, setChildren] = useState<SessionInfo[] | null>(null);
  const { busy, run, shown } = useAction(onClose);
  useEffect(() => {
    void ok(client.GET('/api/session', { params: { query: { parentID: session.id, limit: '100' } } }))
      .then((r) => setChildren(r.data))
      .catch(() => setChildren([]));
  }, [session.id]);
  return (
    <Dialog title="Delete the session?" onClose={onClose}>
      <p>“{sessionTitle(session)}” and its whole transcript will be deleted. This cannot be undone.</p>
      {children === null ? (
        <p class="muted">Looking for child sessions…</p>
      ) : children.length > 0 ? (
        <>
          <p>
            <strong>
              {children.length === 1 ? 'Its child session is' : `Its ${children.length} child sessions are`}{' '}
              deleted too:
            </strong>
          </p>
          <ul>
            {children.map((child) => (
              <li key={child.id}>{sessionTitle(child)}</li>
            ))}
          </ul>
        </>
      ) : null}
      {shown}
      <div class="actions">
        <button
          type="button"
          class="danger"
          disabled={busy || children === null}
          onClick={() =>
            void run(async () => {
              await ok(client.DELETE('/api/session/{sessionID}', of(session.id)));
              navigate({ name: 'sessions' });
            })
          }
        >
          {children && children.length > 0 ? `Delete ${children.length + 1} sessions` : 'Delete'}
        </button>
        <button type="button" class="secondary" onClick={onClose} autoFocus>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}

export function ForkDialog({
  session,
  messages,
  before,
  onClose,
}: {
  session: SessionInfo;
  messages: SessionMessageInfo[];
  before: string | null;
  onClose: () => void;
}) {
  const prompts = messages.filter(
    (m): m is Extract<SessionMessageInfo, { type: 'user' }> => m.type === 'user',
  );
  const [choice, setChoice] = useState(before ?? '');
  const { busy, run, shown } = useAction(() => undefined);
  return (
    <Dialog title="Fork the session" onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void run(async () => {
            const forked = await ok(
              client.POST('/api/session/{sessionID}/fork', {
                ...of(session.id),
                body: choice ? { before: choice } : {},
              }),
            );
            onClose();
            navigate({ name: 'session', id: forked.data.id });
          });
        }}
      >
        <p class="muted">
          A new session starts with a copy of this one’s history up to the point you choose.
        </p>
        <label for="fork-before">Copy the history</label>
        <select id="fork-before" value={choice} onChange={(e) => setChoice(e.currentTarget.value)}>
          <option value="">All of it</option>
          {prompts.map((m) => (
            <option key={m.id} value={m.id}>
              Before “{m.text.length > 60 ? `${m.text.slice(0, 57)}…` : m.text}”
            </option>
          ))}
        </select>
        {shown}
        <DialogActions action="Fork" disabled={busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
