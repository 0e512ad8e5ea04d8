import { useEffect, useState } from 'preact/hooks';
import type { OutpostEvent } from './types';

export type FeedState = 'connecting' | 'live' | 'reconnecting';

type Listener = (event: OutpostEvent) => void;

/** Heartbeats come every 15 s: a stream silent for longer than this is dead even if the socket says otherwise. */
const SILENCE_MS = 40_000;

/**
 * The instance's event stream (`GET /api/event`), shared by every view. It reconnects by itself (with a growing
 * pause) and, each time it is connected, tells `onResync` listeners to fetch what they show again: events sent
 * while it was away are not replayed, and a view may have loaded before the first connection was up.
 */
class EventFeed {
  private source?: EventSource;
  private readonly listeners = new Set<Listener>();
  private readonly resyncs = new Set<() => void>();
  private readonly states = new Set<(state: FeedState) => void>();
  private retries = 0;
  private timer?: ReturnType<typeof setTimeout>;
  private watchdog?: ReturnType<typeof setTimeout>;
  state: FeedState = 'connecting';

  start(): void {
    if (this.source) return;
    this.open();
  }

  stop(): void {
    clearTimeout(this.timer);
    clearTimeout(this.watchdog);
    this.source?.close();
    this.source = undefined;
  }

  on(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onResync(listener: () => void): () => void {
    this.resyncs.add(listener);
    return () => this.resyncs.delete(listener);
  }

  onState(listener: (state: FeedState) => void): () => void {
    this.states.add(listener);
    return () => this.states.delete(listener);
  }

  private open(): void {
    const source = new EventSource('/api/event');
    this.source = source;
    this.alive();
    source.onmessage = (message) => {
      this.alive();
      let event: OutpostEvent;
      try {
        event = JSON.parse(message.data as string) as OutpostEvent;
      } catch {
        return;
      }
      if (event.type === 'server.connected') {
        this.retries = 0;
        this.setState('live');
        for (const resync of this.resyncs) resync();
        return;
      }
      for (const listener of this.listeners) listener(event);
    };
    source.onerror = () => {
      this.setState('reconnecting');
      // The browser retries by itself unless the stream was refused (a 401, a restart's 503): then we do.
      if (source.readyState === EventSource.CLOSED) this.reopen();
    };
  }

  private reopen(): void {
    this.source?.close();
    this.source = undefined;
    clearTimeout(this.timer);
    const pause = Math.min(30_000, 500 * 2 ** this.retries++);
    this.timer = setTimeout(() => this.open(), pause);
  }

  private alive(): void {
    clearTimeout(this.watchdog);
    this.watchdog = setTimeout(() => {
      this.setState('reconnecting');
      this.reopen();
    }, SILENCE_MS);
  }

  private setState(state: FeedState): void {
    if (this.state === state) return;
    this.state = state;
    for (const listener of this.states) listener(state);
  }
}

export const feed = new EventFeed();

/** Calls `listener` with every event while the component is mounted. */
export function useEvents(listener: Listener, deps: unknown[]): void {
  useEffect(() => feed.on(listener), deps);
}

/** Calls `refetch` whenever the stream is connected: at first, and when it comes back after a gap. */
export function useResync(refetch: () => void, deps: unknown[]): void {
  useEffect(() => feed.onResync(refetch), deps);
}

export function useFeedState(): FeedState {
  const [state, setState] = useState(feed.state);
  useEffect(() => feed.onState(setState), []);
  return state;
}
