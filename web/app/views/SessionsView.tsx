import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, client, ok } from '../api';
import { Dialog, DialogActions } from '../components/Dialog';
import { LocationChooser } from '../components/LocationChooser';
import { useEvents, useResync } from '../events';
import { formatCost, formatWhen, sessionTitle, shortPath } from '../format';
import { rememberLocation, useKnownLocations } from '../locations';
import { href, navigate } from '../router';
import type { OutpostEvent, SessionInfo } from '../types';

const PAGE_SIZE = 30;

interface Filters {
  search: string;
  directory: string;
  project: string;
}

/** The list after `event`: a rename or a new cost in place, a deletion gone, a new session on top if it matches. */
function applyEvent(
  list: SessionInfo[],
  event: OutpostEvent,
  { search, directory, project }: Filters,
): SessionInfo[] {
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
}

/** The projects known so far (id → a directory of theirs), with those of `sessions`. */
function withProjects(before: Map<string, string>, sessions: SessionInfo[]): Map<string, string> {
  const unseen = sessions.filter((session) => !before.has(session.projectID));
  if (unseen.length === 0) return before;
  const after = new Map(before);
  for (const session of unseen) {
    if (!after.has(session.projectID)) after.set(session.projectID, session.location.directory);
  }
  return after;
}

/** The query of a page: the first with the filters, a later one by its cursor. */
const pageQuery = ({ search, directory, project }: Filters, cursor?: string): Record<string, string> =>
  cursor
    ? { cursor, limit: String(PAGE_SIZE) }
    : {
        limit: String(PAGE_SIZE),
        ...(search ? { search } : {}),
        ...(directory ? { directory } : {}),
        ...(project ? { project } : {}),
      };

/**
 * The sessions the filters match, a page at a time, kept up to date by the events; the projects seen so far.
 * `load()` starts again from the first page, `load(cursor)` adds the next.
 */
function useSessionList(filters: Filters) {
  const [projects, setProjects] = useState<Map<string, string>>(new Map());
  const [items, setItems] = useState<SessionInfo[]>([]);
  const [next, setNext] = useState<string | undefined>();
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState('');
  const generation = useRef(0);
  /** Events that came while the first page was loading: replayed on it, since it may predate them. */
  const missed = useRef<OutpostEvent[] | undefined>();
  const keys = [filters.search, filters.directory, filters.project];
  /** Remembers the projects of listed sessions for the project filter. */
  const seeProjects = (sessions: SessionInfo[]) => setProjects((before) => withProjects(before, sessions));

  const load = async (cursor?: string) => {
    const mine = cursor ? generation.current : ++generation.current;
    if (!cursor) missed.current = [];
    setLoading(true);
    setError('');
    try {
      const page = await ok(client.GET('/api/session', { params: { query: pageQuery(filters, cursor) } }));
      if (mine !== generation.current) return;
      if (cursor) setItems((before) => [...before, ...page.data]);
      else
        setItems((missed.current ?? []).reduce((list, event) => applyEvent(list, event, filters), page.data));
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

  // A new search waits for a pause in typing; a new filter loads at once.
  useEffect(() => {
    const timer = setTimeout(() => void load(), filters.search ? 250 : 0);
    return () => clearTimeout(timer);
  }, keys);

  useResync(() => void load(), keys);

  useEvents((event) => {
    if (!event.type.startsWith('session.')) return;
    if (event.type === 'session.created') seeProjects([(event.data as { info: SessionInfo }).info]);
    missed.current?.push(event);
    setItems((before) => applyEvent(before, event, filters));
  }, keys);

  return { projects, items, next, loading, error, load };
}

/** Calls `more` as `target` (the end of a list) comes into view, while there is a `next` page and none loading. */
function useMoreOnScroll(
  sentinel: { current: HTMLElement | null },
  next: string | undefined,
  loading: boolean,
  more: () => void,
) {
  useEffect(() => {
    const target = sentinel.current;
    if (!target || !next || loading) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) more();
    });
    observer.observe(target);
    return () => observer.disconnect();
  }, [next, loading]);
}

/** A filter of the list: a select whose first choice (`all`) is none. */
function FilterSelect(props: {
  id: string;
  label: string;
  all: string;
  value: string;
  options: Array<{ value: string; text: string; title?: string }>;
  onChange: (value: string) => void;
}) {
  return (
    <div>
      <label for={props.id}>{props.label}</label>
      <select
        id={props.id}
        value={props.value}
        onChange={(event) => props.onChange(event.currentTarget.value)}
      >
        <option value="">{props.all}</option>
        {props.options.map((option) => (
          <option key={option.value} value={option.value} title={option.title}>
            {option.text}
          </option>
        ))}
      </select>
    </div>
  );
}

function SessionFilters(props: {
  filters: Filters;
  known: string[];
  projects: Map<string, string>;
  onChange: (change: Partial<Filters>) => void;
}) {
  const { filters, onChange } = props;
  return (
    <form class="filters" role="search" onSubmit={(event) => event.preventDefault()}>
      <div>
        <label for="session-search">Search</label>
        <input
          id="session-search"
          type="search"
          placeholder="Title contains…"
          value={filters.search}
          onInput={(event) => onChange({ search: event.currentTarget.value })}
        />
      </div>
      <FilterSelect
        id="session-directory"
        label="Directory"
        all="All directories"
        value={filters.directory}
        options={props.known.map((d) => ({ value: d, text: d }))}
        onChange={(directory) => onChange({ directory })}
      />
      <FilterSelect
        id="session-project"
        label="Project"
        all="All projects"
        value={filters.project}
        options={[...props.projects].map(([id, where]) => ({
          value: id,
          text: shortPath(where),
          title: where,
        }))}
        onChange={(project) => onChange({ project })}
      />
    </form>
  );
}

function SessionItem({ session }: { session: SessionInfo }) {
  return (
    <li>
      <a href={href({ name: 'session', id: session.id })}>
        <span class="session-title">{sessionTitle(session)}</span>
        <span class="session-meta muted">
          <span title={session.location.directory}>{shortPath(session.location.directory)}</span>
          <span>{formatWhen(session.time.updated)}</span>
          <span>{formatCost(session.cost)}</span>
          {session.parentID && <span>{session.fork ? 'fork' : 'child'}</span>}
        </span>
      </a>
    </li>
  );
}

/** Why the list is empty: nothing matches the filters, or there is no session yet. */
function NoSessions({ filtered }: { filtered: boolean }) {
  return (
    <p class="muted empty">
      {filtered ? (
        'No session matches.'
      ) : (
        <>
          No sessions yet. Start one; the agent needs a model:{' '}
          <a href="#/models">add one on the Models page</a>.
        </>
      )}
    </p>
  );
}

/**
 * The sessions, newest first: search, directory and project filters, more as the list scrolls; and a new session.
 * The project filter offers the projects of the sessions seen so far, named by a directory of theirs.
 */
export function SessionsView() {
  const known = useKnownLocations();
  const [filters, setFilters] = useState<Filters>({ search: '', directory: '', project: '' });
  const [creating, setCreating] = useState(false);
  const { projects, items, next, loading, error, load } = useSessionList(filters);
  const sentinel = useRef<HTMLDivElement>(null);
  useMoreOnScroll(sentinel, next, loading, () => void load(next));

  return (
    <section aria-labelledby="sessions-title">
      <div class="page-head">
        <h1 id="sessions-title">Sessions</h1>
        <button type="button" onClick={() => setCreating(true)}>
          New session
        </button>
      </div>
      <SessionFilters
        filters={filters}
        known={known}
        projects={projects}
        onChange={(change) => setFilters((before) => ({ ...before, ...change }))}
      />
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <ul class="session-list" aria-label="Sessions" aria-busy={loading}>
        {items.map((session) => (
          <SessionItem key={session.id} session={session} />
        ))}
      </ul>
      {!loading && items.length === 0 && !error && (
        <NoSessions filtered={Boolean(filters.search || filters.directory || filters.project)} />
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
