import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, client, ok } from '../api';
import { Dialog, DialogActions } from '../components/Dialog';
import { LocationChooser } from '../components/LocationChooser';
import { useEvents, useResync } from '../events';
import { formatCost, formatWhen, shortPath } from '../format';
import { rememberLocation, useKnownLocations } from '../locations';
import { href, navigate } from '../router';
import type { OutpostEvent, SessionInfo } from '../types';

const PAGE_SIZE = 30;

/**
 * The sessions, newest first: search, directory and project filters, more as the list scrolls; and a new session.
 * The project filter offers the projects of the sessions seen so far, named by a directory of theirs.
 */
export function SessionsView() {
  const known = useKnownLocations();
  const [search, setSearch] = useState('');
  const [directory, setDirectory] = useState('');
  const [project, setProject] = useState('');
  const [projects, setProjects] = useState<Map<string, string>>(new Map());
  const [items, setItems] = useState<SessionInfo[]>([]);
  const [next, setNext] = useState<string | undefined>();
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState('');
  const [creating, setCreating] = useState(false);
  const generation = useRef(0);
  /** Events that came while the first page was loading: replayed on it, since it may predate them. */
  const missed = useRef<OutpostEvent[] | undefined>();
  const sentinel = useRef<HTMLDivElement>(null);

  const load = async (cursor?: string) => {
    const mine = cursor ? generation.current : ++generation.current;
    if (!cursor) missed.current = [];
    setLoading(true);
    setError('');
    try {
      const query: Record<string, string> = cursor
        ? { cursor, limit: String(PAGE_SIZE) }
        : {
            limit: String(PAGE_SIZE),
            ...(search ? { search } : {}),
            ...(directory ? { directory } : {}),
            ...(project ? { project } : {}),
          };
      const page = await ok(client.GET('/api/session', { params: { query } }));
      if (mine !== generation.current) return;
      if (cursor) {
        setItems((before) => [...before, ...page.data]);
      } else {
        setItems((missed.current ?? []).reduce(applyEvent, page.data));
      }
      seeProjects(page.data);
      setNext(page.data.length < PAGE_SIZE ? undefined : page.cursor.next);
    } catch (failure) {
      if (mine === generation.current) setError((failure as ApiError).message);
    } finally {
      if (mine === generation.current) {
        setLoading(false);
        // Answered or failed, this load no longer needs the events it was keeping.
        if (!cursor) missed.current = undefined;
      }
    }
  };

  /** Remembers the projects of listed sessions for the project filter. */
  const seeProjects = (sessions: SessionInfo[]) =>
    setProjects((before) => {
      const unseen = sessions.filter((session) => !before.has(session.projectID));
      if (unseen.length === 0) return before;
      const after = new Map(before);
      for (const session of unseen) {
        if (!after.has(session.projectID)) after.set(session.projectID, session.location.directory);
      }
      return after;
    });

  // A new search waits for a pause in typing; a new filter loads at once.
  useEffect(() => {
    const timer = setTimeout(() => void load(), search ? 250 : 0);
    return () => clearTimeout(timer);
  }, [search, directory, project]);

  useResync(() => void load(), [search, directory, project]);

  // More as the end of the list comes into view.
  useEffect(() => {
    const target = sentinel.current;
    if (!target || !next || loading) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) void load(next);
    });
    observer.observe(target);
    return () => observer.disconnect();
  }, [next, loading]);

  /** The list after `event`: a rename or a new cost in place, a deletion gone, a new session on top if it matches. */
  const applyEvent = (list: SessionInfo[], event: OutpostEvent): SessionInfo[] => {
    if (event.type === 'session.updated') {
      const info = (event.data as { info: SessionInfo }).info;
      return list.map((s) => (s.id === info.id ? info : s));
    }
    if (event.type === 'session.deleted') {
      const id = (event.data as { sessionID: string }).sessionID;
      return list.filter((s) => s.id !== id);
    }
    if (event.type === 'session.created') {
      const info = (event.data as { info: SessionInfo }).info;
      if (search || (directory && info.location.directory !== directory)) return list;
      if (project && info.projectID !== project) return list;
      return list.some((s) => s.id === info.id) ? list : [info, ...list];
    }
    return list;
  };

  useEvents(
    (event) => {
      if (!event.type.startsWith('session.')) return;
      if (event.type === 'session.created') seeProjects([(event.data as { info: SessionInfo }).info]);
      missed.current?.push(event);
      setItems((before) => applyEvent(before, event));
    },
    [search, directory, project],
  );

  return (
    <section aria-labelledby="sessions-title">
      <div class="page-head">
        <h1 id="sessions-title">Sessions</h1>
        <button type="button" onClick={() => setCreating(true)}>
          New session
        </button>
      </div>
      <form class="filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <div>
          <label for="session-search">Search</label>
          <input
            id="session-search"
            type="search"
            placeholder="Title contains…"
            value={search}
            onInput={(event) => setSearch(event.currentTarget.value)}
          />
        </div>
        <div>
          <label for="session-directory">Directory</label>
          <select
            id="session-directory"
            value={directory}
            onChange={(event) => setDirectory(event.currentTarget.value)}
          >
            <option value="">All directories</option>
            {known.map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="session-project">Project</label>
          <select
            id="session-project"
            value={project}
            onChange={(event) => setProject(event.currentTarget.value)}
          >
            <option value="">All projects</option>
            {[...projects].map(([id, where]) => (
              <option key={id} value={id} title={where}>
                {shortPath(where)}
              </option>
            ))}
          </select>
        </div>
      </form>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <ul class="session-list" aria-label="Sessions" aria-busy={loading}>
        {items.map((session) => (
          <li key={session.id}>
            <a href={href({ name: 'session', id: session.id })}>
              <span class="session-title">{session.title || 'Untitled session'}</span>
              <span class="session-meta muted">
                <span title={session.location.directory}>{shortPath(session.location.directory)}</span>
                <span>{formatWhen(session.time.updated)}</span>
                <span>{formatCost(session.cost)}</span>
                {session.parentID && <span>{session.fork ? 'fork' : 'child'}</span>}
              </span>
            </a>
          </li>
        ))}
      </ul>
      {!loading && items.length === 0 && !error && (
        <p class="muted empty">
          {search || directory || project ? (
            'No session matches.'
          ) : (
            <>
              No sessions yet. Start one; the agent needs a model:{' '}
              <a href="#/models">add one on the Models page</a>.
            </>
          )}
        </p>
      )}
      <div ref={sentinel} class="list-end">
        {loading && <p class="muted">Loading…</p>}
        {!loading && next && (
          <button type="button" class="secondary" onClick={() => void load(next)}>
            Load more
          </button>
        )}
      </div>
      {creating && <NewSession known={known} onClose={() => setCreating(false)} />}
    </section>
  );
}

function NewSession({ known, onClose }: { known: string[]; onClose: () => void }) {
  const [directory, setDirectory] = useState(known[0] ?? '');
  const [title, setTitle] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const create = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      const created = await ok(
        client.POST('/api/session', {
          body: { location: { directory }, ...(title.trim() ? { title: title.trim() } : {}) },
        }),
      );
      rememberLocation(directory);
      onClose();
      navigate({ name: 'session', id: created.data.id });
    } catch (failure) {
      setError((failure as ApiError).message);
      setBusy(false);
    }
  };
  return (
    <Dialog title="New session" onClose={onClose}>
      <form onSubmit={(event) => void create(event)}>
        <LocationChooser
          id="new-session-directory"
          label="Project directory"
          known={known}
          value={directory}
          onChange={setDirectory}
        />
        <label for="new-session-title">Title (optional)</label>
        <input
          id="new-session-title"
          type="text"
          value={title}
          onInput={(e) => setTitle(e.currentTarget.value)}
        />
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <DialogActions
          action={busy ? 'Creating…' : 'Create session'}
          disabled={busy || !directory.startsWith('/')}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}
