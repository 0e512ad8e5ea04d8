import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ApiError, client, ok } from '../api';
import type { Json, PermissionRequest } from '../types';
import { ToolInput } from './Transcript';

const ACTION_WORDS: Record<string, string> = {
  edit: 'change a file',
  bash: 'run a command',
  external_directory: 'work outside the project',
  read: 'read a file',
};

/** The permission requests of a session waiting for an answer: what the tool wants, and the three answers. */
export function Approvals({ sessionID, requests }: { sessionID: string; requests: PermissionRequest[] }) {
  if (requests.length === 0) return null;
  return (
    <section class="approvals" aria-label="Waiting for your approval" aria-live="assertive">
      {requests.map((request) => (
        <Approval key={request.id} sessionID={sessionID} request={request} />
      ))}
    </section>
  );
}

type Answer = 'once' | 'always' | 'reject';

/** Answers the request; a refusal may say why (`reason`), which the agent reads. */
const sendReply = (sessionID: string, requestID: string, answer: Answer, reason: string) =>
  ok(
    client.POST('/api/session/{sessionID}/permission/{requestID}/reply', {
      params: { path: { sessionID, requestID } },
      body: {
        reply: answer,
        ...(answer === 'reject' && reason.trim() ? { message: reason.trim() } : {}),
      },
    }),
  );

/** Why the request is refused: a box that has the focus as it shows (on Deny…); Enter refuses. */
function DenyReason(props: {
  id: string;
  reason: string;
  onReason: (reason: string) => void;
  onDeny: () => void;
}) {
  const field = useRef<HTMLInputElement>(null);
  // `autoFocus` only works on page load; the reason field opens later, on Deny…, and has the focus as it shows.
  useLayoutEffect(() => field.current?.focus(), []);
  return (
    <div>
      <label for={`${props.id}-reason`}>Why not? (the agent reads this)</label>
      <input
        id={`${props.id}-reason`}
        type="text"
        value={props.reason}
        onInput={(event) => props.onReason(event.currentTarget.value)}
        ref={field}
        onKeyDown={(event) => event.key === 'Enter' && props.onDeny()}
      />
    </div>
  );
}

function Approval({ sessionID, request }: { sessionID: string; request: PermissionRequest }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [denying, setDenying] = useState(false);
  const [reason, setReason] = useState('');
  const meta = request.metadata as { tool?: string; input?: Record<string, Json> };
  const reply = async (answer: Answer) => {
    setBusy(true);
    setError('');
    try {
      await sendReply(sessionID, request.id, answer, reason);
    } catch (failure) {
      setError((failure as ApiError).message);
      setBusy(false);
    }
  };
  const heading = `${meta.tool ?? 'A tool'} wants to ${ACTION_WORDS[request.permission] ?? request.permission}`;
  return (
    <article class="approval panel" aria-labelledby={`${request.id}-title`} tabIndex={-1}>
      <h2 id={`${request.id}-title`}>{heading}</h2>
      <ul class="patterns">
        {request.patterns.map((pattern) => (
          <li key={pattern}>
            <code>{pattern}</code>
          </li>
        ))}
      </ul>
      {meta.input && <ToolInput name={meta.tool ?? ''} input={meta.input} />}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {denying && (
        <DenyReason
          id={request.id}
          reason={reason}
          onReason={setReason}
          onDeny={() => void reply('reject')}
        />
      )}
      <div class="actions">
        <button type="button" disabled={busy} onClick={() => void reply('once')}>
          Allow once
        </button>
        <button
          type="button"
          class="secondary"
          disabled={busy}
          onClick={() => void reply('always')}
          title={
            request.always.length ? `From now on in this session: ${request.always.join(', ')}` : undefined
          }
        >
          Allow always
        </button>
        <button
          type="button"
          class="danger"
          disabled={busy}
          onClick={() => (denying ? void reply('reject') : setDenying(true))}
        >
          {denying ? 'Deny' : 'Deny…'}
        </button>
      </div>
    </article>
  );
}
