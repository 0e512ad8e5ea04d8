import { useEffect, useReducer, useRef, useState } from 'preact/hooks';
import { ApiError, client, of, ok } from '../api';
import { useEvents, useResync } from '../events';
import { useFollowLatest } from '../follow';
import { formatCost, formatCount, sessionTitle, shortPath, totalTokens } from '../format';
import { downloadExport } from '../transfer';
import { transcriptReducer } from '../transcript';
import type {
  EventCatalog,
  OutpostEvent,
  PermissionRequest,
  SessionInfo,
  SessionMessageInfo,
} from '../types';
import { Approvals } from './Approvals';
import { LocationModels, useNamedModels } from '../models';
import { PromptBox } from './PromptBox';
import { DeleteDialog, ForkDialog, MoveDialog, RenameDialog } from './SessionDialogs';
import { Transcript } from './Transcript';

const MESSAGE_PAGE = 200;

async function allMessages(sessionID: string): Promise<SessionMessageInfo[]> {
  const out: SessionMessageInfo[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await ok(
      client.GET('/api/session/{sessionID}/message', {
        params: {
          path: { sessionID },
          query: { limit: String(MESSAGE_PAGE), ...(cursor ? { cursor } : {}) },
        },
      }),
    );
    // The document's message schema is one loose shape for every variant; the server sends the exact union.
    out.push(...(page.data as unknown as SessionMessageInfo[]));
    if (page.data.length < MESSAGE_PAGE || !page.cursor.next) return out;
    cursor = page.cursor.next;
  }
}

type Dialogs = 'rename' | 'move' | 'delete' | { fork: string | null } | null;

/** What the page keeps of a session, as the events change it. */
interface SessionSetters {
  dispatch: (action: Parameters<typeof transcriptReducer>[1]) => void;
  setSession: (session: SessionInfo) => void;
  setMissing: (missing: boolean) => void;
  setRunning: (running: boolean) => void;
  setPermissions: (change: (before: PermissionRequest[]) => PermissionRequest[]) => void;
  refreshInfo: () => void;
}

/** What an event of this session changes on the page. */
function applyEvent(event: OutpostEvent, to: SessionSetters) {
  const data = event.data as { sessionID?: string };
  switch (event.type) {
    case 'session.message.created':
    case 'session.message.updated':
      to.dispatch({ type: 'upsert', message: (data as EventCatalog['session.message.created']).message });
      return;
    case 'session.message.part.delta':
      to.dispatch({ type: 'delta', delta: data as EventCatalog['session.message.part.delta'] });
      return;
    case 'session.updated':
      to.setSession((data as EventCatalog['session.updated']).info);
      return;
    case 'session.deleted':
      to.setMissing(true);
      return;
    case 'session.execution.started':
      to.setRunning(true);
      return;
    case 'session.idle':
      to.setRunning(false);
      to.refreshInfo();
      return;
    case 'permission.asked': {
      const request = data as PermissionRequest;
      to.setPermissions((before) =>
        before.some((r) => r.id === request.id) ? before : [...before, request],
      );
      return;
    }
    case 'permission.replied': {
      const { requestID } = data as EventCatalog['permission.replied'];
      to.setPermissions((before) => before.filter((r) => r.id !== requestID));
      return;
    }
    case 'session.step.ended':
    case 'session.agent.selected':
    case 'session.model.selected':
    case 'session.moved':
      to.refreshInfo();
      return;
  }
}

/** The session, its transcript, the approvals it waits for and whether it runs: loaded, then kept up by events. */
function useSession(id: string) {
  const [session, setSession] = useState<SessionInfo | null>(null);
  const [messages, dispatch] = useReducer(transcriptReducer, []);
  const [permissions, setPermissions] = useState<PermissionRequest[]>([]);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState('');
  const [missing, setMissing] = useState(false);

  const refreshInfo = () =>
    ok(client.GET('/api/session/{sessionID}', of(id)))
      .then((r) => setSession(r.data))
      .catch(() => undefined);
  const setters: SessionSetters = {
    dispatch,
    setSession,
    setMissing,
    setRunning,
    setPermissions,
    refreshInfo: () => void refreshInfo(),
  };

  /** Bumped by each load: only the newest one's answer is shown. */
  const generation = useRef(0);
  /** Events that came while a load was under way: replayed on its answer, which may predate them. */
  const missed = useRef<OutpostEvent[] | undefined>();

  const load = async () => {
    const mine = ++generation.current;
    missed.current = [];
    try {
      const [info, transcript, pending, active] = await Promise.all([
        ok(client.GET('/api/session/{sessionID}', of(id))),
        allMessages(id),
        ok(client.GET('/api/session/{sessionID}/permission', of(id))),
        ok(client.GET('/api/session/active')),
      ]);
      if (mine !== generation.current) return;
      setSession(info.data);
      dispatch({ type: 'reset', messages: transcript });
      setPermissions(pending.data);
      setRunning(id in active.data);
      setError('');
    } catch (failure) {
      if (mine !== generation.current) return;
      if ((failure as ApiError).status === 404) setMissing(true);
      else setError((failure as ApiError).message);
    }
    const replay = missed.current ?? [];
    missed.current = undefined;
    // Deltas are not replayed: the answer may already hold their text, and the next message update is whole.
    for (const event of replay) if (event.type !== 'session.message.part.delta') applyEvent(event, setters);
  };

  useEffect(() => void load(), [id]);
  useResync(() => void load(), [id]);
  useEvents(
    (event) => {
      if ((event.data as { sessionID?: string }).sessionID !== id) return;
      missed.current?.push(event);
      applyEvent(event, setters);
    },
    [id],
  );
  return { session, messages, permissions, running, error, setError, missing, refreshInfo };
}

function SessionHeading({ session }: { session: SessionInfo }) {
  return (
    <div class="session-heading">
      <h1 id="session-title">{sessionTitle(session)}</h1>
      <p class="muted small">
        <span title={session.location.directory} data-testid="session-directory">
          {shortPath(session.location.directory)}
        </span>
        {session.parentID && (
          <>
            {' · '}
            <a href={`#/session/${session.parentID}`}>{session.fork ? 'forked from' : 'child of'} parent</a>
          </>
        )}
      </p>
    </div>
  );
}

function SessionStats({ session, state }: { session: SessionInfo; state: 'waiting' | 'running' | 'idle' }) {
  const { tokens } = session;
  return (
    <dl class="session-stats">
      <div>
        <dt>State</dt>
        <dd>
          <span class={`badge state-${state}`} data-testid="session-state">
            {state === 'waiting' ? 'Waiting for permission' : state === 'running' ? 'Running' : 'Idle'}
          </span>
        </dd>
      </div>
      <div>
        <dt>Cost</dt>
        <dd data-testid="session-cost">{formatCost(session.cost)}</dd>
      </div>
      <div>
        <dt>Tokens</dt>
        <dd
          data-testid="session-tokens"
          title={`input ${tokens.input}, output ${tokens.output}, reasoning ${tokens.reasoning}, cache read ${tokens.cache.read}, cache write ${tokens.cache.write}`}
        >
          {formatCount(totalTokens(tokens))}
        </dd>
      </div>
    </dl>
  );
}

function SessionActions(props: { onDialog: (dialog: Dialogs) => void; onExport: () => void }) {
  const { onDialog } = props;
  return (
    <div class="session-actions" role="group" aria-label="Session actions">
      <button type="button" class="secondary small" onClick={() => onDialog('rename')}>
        Rename
      </button>
      <button type="button" class="secondary small" onClick={() => onDialog({ fork: null })}>
        Fork
      </button>
      <button type="button" class="secondary small" onClick={() => onDialog('move')}>
        Move
      </button>
      <button type="button" class="secondary small" onClick={props.onExport}>
        Export
      </button>
      <button type="button" class="danger small" onClick={() => onDialog('delete')}>
        Delete
      </button>
    </div>
  );
}

/** The dialog asked for, if any. */
function SessionDialog(props: {
  dialog: Dialogs;
  session: SessionInfo;
  messages: SessionMessageInfo[];
  onClose: () => void;
  onDone: () => void;
}) {
  const { dialog, session, onClose } = props;
  if (dialog === 'rename') return <RenameDialog session={session} onClose={onClose} onDone={props.onDone} />;
  if (dialog === 'move') return <MoveDialog session={session} onClose={onClose} onDone={props.onDone} />;
  if (dialog === 'delete') return <DeleteDialog session={session} onClose={onClose} />;
  if (dialog && typeof dialog === 'object')
    return <ForkDialog session={session} messages={props.messages} before={dialog.fork} onClose={onClose} />;
  return null;
}

/** Before the session shows: not found, the error, or "Loading". */
function NoSession({ missing, error }: { missing: boolean; error: string }) {
  if (missing) {
    return (
      <div class="panel">
        <h1>Session not found</h1>
        <p>It was deleted, or the link is wrong.</p>
        <p>
          <a href="#/">Back to the sessions</a>
        </p>
      </div>
    );
  }
  return error ? (
    <p class="error" role="alert">
      {error}
    </p>
  ) : (
    <p class="muted" aria-busy="true">
      Loading the session…
    </p>
  );
}

/** One session: its transcript, live; approvals; the prompt box; and what can be done to the session. */
export function SessionView({ id }: { id: string }) {
  const { session, messages, permissions, running, error, setError, missing, refreshInfo } = useSession(id);
  const [dialog, setDialog] = useState<Dialogs>(null);
  const { models } = useNamedModels(session?.location.directory ?? '');
  // The tab says which session it is; titles arrive later than the session (the agent names it).
  useEffect(() => {
    document.title = session ? `${sessionTitle(session)} · Outpost` : 'Outpost';
  }, [session?.title]);

  const [content, setContent] = useState<HTMLElement | null>(null);
  const { following, jump } = useFollowLatest(content);
  const jumpToLatest = () => {
    jump();
    // Keyboard users land where the latest thing asks for them: the waiting approval, else the prompt.
    const target =
      document.querySelector<HTMLElement>('.approval') ?? document.querySelector<HTMLElement>('#prompt');
    target?.focus({ preventScroll: true });
  };

  if (missing || !session) return <NoSession missing={missing} error={error} />;
  const state = permissions.length > 0 ? 'waiting' : running ? 'running' : 'idle';
  return (
    <section class="session" aria-labelledby="session-title" ref={setContent}>
      <header class="session-head">
        <SessionHeading session={session} />
        <SessionStats session={session} state={state} />
        <SessionActions
          onDialog={setDialog}
          onExport={() =>
            void downloadExport(session.id).catch((failure: ApiError) => setError(failure.message))
          }
        />
      </header>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {messages.length === 0 ? (
        <p class="muted empty">No messages yet. Ask something below.</p>
      ) : (
        <LocationModels.Provider value={models ?? []}>
          <Transcript messages={messages} onFork={(messageID) => setDialog({ fork: messageID })} />
        </LocationModels.Provider>
      )}
      <Approvals sessionID={id} requests={permissions} />
      <div class="prompt-dock">
        {!following && (
          <button type="button" class="jump-latest secondary small" onClick={jumpToLatest}>
            {permissions.length > 0 ? 'An approval is waiting · Jump to latest ↓' : 'Jump to latest ↓'}
          </button>
        )}
        <PromptBox session={session} running={running} />
      </div>
      <SessionDialog
        dialog={dialog}
        session={session}
        messages={messages}
        onClose={() => setDialog(null)}
        onDone={refreshInfo}
      />
    </section>
  );
}
