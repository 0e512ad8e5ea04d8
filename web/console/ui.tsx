import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { call, wordsOf } from './api';

/** Loads data for a page; `reload` after a change. Errors become words. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => live && setState({ data, loading: false }),
      (error) => live && setState({ error: wordsOf(error), loading: false }),
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  return { ...state, reload: () => setTick((value) => value + 1) };
}

/** Runs an action, keeping its error (in words) and whether it runs. */
export function useAction() {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      return true;
    } catch (failure) {
      setError(wordsOf(failure));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, run, setError };
}

export function ErrorText({ message }: { message?: string }) {
  return message ? (
    <p class="error" role="alert">
      {message}
    </p>
  ) : null;
}

export function Notice({ message }: { message?: string }) {
  return message ? (
    <p class="notice" role="status">
      {message}
    </p>
  ) : null;
}

export function Loading<T>({
  state,
  children,
}: {
  state: { data?: T; error?: string; loading: boolean };
  children: (data: T) => ComponentChildren;
}) {
  if (state.error) return <ErrorText message={state.error} />;
  if (state.data === undefined) return <p class="muted">Loading…</p>;
  return <>{children(state.data)}</>;
}

interface ConfirmProps {
  label: string;
  question: string;
  confirm: string;
  onConfirm: () => Promise<unknown>;
  ariaLabel?: string;
}

/** A button that asks first, in the page: the question, then "Yes" or "Cancel". */
export function ConfirmButton(props: ConfirmProps) {
  const [asking, setAsking] = useState(false);
  const yes = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) yes.current?.focus();
  }, [asking]);
  if (!asking) {
    return (
      <button type="button" class="secondary" aria-label={props.ariaLabel} onClick={() => setAsking(true)}>
        {props.label}
      </button>
    );
  }
  return (
    <span role="group" aria-label={props.question}>
      <span class="small">{props.question} </span>
      <button
        type="button"
        class="danger"
        ref={yes}
        onClick={async () => {
          await props.onConfirm();
          setAsking(false);
        }}
      >
        {props.confirm}
      </button>
      <button type="button" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}

export type Action = ReturnType<typeof useAction>;
/** A call of the API as `api.DELETE(…)` makes it. */
export type ApiCall = Parameters<typeof call>[0];

/** Sends a DELETE through `action` (which keeps its error, in words), then `then` once it is done. */
export const deleteThrough = (action: Action, request: () => ApiCall, then: () => void) =>
  action.run(async () => {
    await call(request());
    then();
  });

/**
 * A `ConfirmButton` whose "yes" (`Yes, <label>` unless `confirm` says otherwise) sends a DELETE through
 * `action`, then `onDone`.
 */
export function DeleteButton({
  action,
  request,
  onDone,
  ...props
}: Omit<ConfirmProps, 'onConfirm' | 'confirm'> & {
  confirm?: string;
  action: Action;
  request: () => ApiCall;
  onDone: () => void;
}) {
  return (
    <ConfirmButton
      {...props}
      confirm={props.confirm ?? `Yes, ${props.label.toLowerCase()}`}
      onConfirm={() => deleteThrough(action, request, onDone)}
    />
  );
}

/**
 * A secret shown once, with a copy button; `children` say how to use it. `level`: its heading's, after the heading
 * above it (2 directly under the page's title).
 */
export function ShownOnce(props: {
  title: string;
  secret: string;
  onDone: () => void;
  what?: string;
  level?: 2 | 3;
  children?: ComponentChildren;
}) {
  const Heading = props.level === 2 ? 'h2' : 'h3';
  const [copied, setCopied] = useState<string>();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => box.current?.focus(), []);
  return (
    <div class="panel" role="region" aria-label={props.title} tabIndex={-1} ref={box}>
      <Heading>{props.title}</Heading>
      <p>
        <strong>Copy it now: you will not see it again.</strong> Outpost keeps only a hash of it.
      </p>
      <p class="secret" data-testid="shown-once">
        {props.secret}
      </p>
      <button
        type="button"
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(props.secret);
            setCopied('Copied.');
          } catch {
            setCopied('Select the text above and copy it.');
          }
        }}
      >
        Copy {props.what ?? 'key'}
      </button>
      <button type="button" class="secondary" onClick={props.onDone}>
        Done
      </button>
      {copied ? <span role="status"> {copied}</span> : null}
      {props.children}
    </div>
  );
}

/** A horizontal bar for spend against a limit. */
export function Bar({ value, max, label }: { value: number; max: number | null; label: string }) {
  const share = max && max > 0 ? Math.min(1, value / max) : 0;
  return (
    <div
      class={`bar${max !== null && value >= max && max > 0 ? ' over' : ''}`}
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max ?? undefined}
      aria-valuenow={value}
    >
      <span style={{ width: `${Math.round(share * 100)}%` }} />
    </div>
  );
}
