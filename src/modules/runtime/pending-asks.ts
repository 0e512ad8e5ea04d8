import { EventLocation } from '@/common/events';

interface Entry<Request, Answer> {
  request: Request;
  location?: EventLocation;
  settle: (answer: Answer) => void;
}

/**
 * Requests waiting for a person (permission asks, the model's questions), in memory: they belong to the running
 * drains of this process, which wait on the answer. A restart interrupts those drains, so nothing here needs to
 * outlive the process. `settled` hears every answer once (to announce it).
 */
export class PendingAsks<Request extends { id: string; sessionID: string }, Answer> {
  private readonly entries = new Map<string, Entry<Request, Answer>>();

  constructor(
    private readonly settled: (request: Request, answer: Answer, location?: EventLocation) => void,
  ) {}

  /** Waits for the request's answer; aborting `signal` answers `aborted` (at once when it already is). */
  wait(request: Request, aborted: Answer, options: { location?: EventLocation; signal?: AbortSignal }) {
    const { location, signal } = options;
    if (signal?.aborted) return Promise.resolve(aborted);
    return new Promise<Answer>((resolve) => {
      const onAbort = () => this.settle(request.id, aborted);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.entries.set(request.id, {
        request,
        location,
        settle: (answer) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(answer);
        },
      });
    });
  }

  /** The pending request of that id (of `sessionID` when given). */
  get(id: string, sessionID?: string): Request | undefined {
    const request = this.entries.get(id)?.request;
    return request && (sessionID === undefined || request.sessionID === sessionID) ? request : undefined;
  }

  /** Pending requests, oldest first: of one session, or of the sessions at one location (directory). */
  list(filter: { sessionID?: string; directory?: string } = {}): Request[] {
    return [...this.entries.values()]
      .filter((e) => filter.sessionID === undefined || e.request.sessionID === filter.sessionID)
      .filter((e) => filter.directory === undefined || e.location?.directory === filter.directory)
      .map((e) => e.request)
      .sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  /** Answers one request; nothing when it is no longer pending. */
  settle(id: string, answer: Answer): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    entry.settle(answer);
    this.settled(entry.request, answer, entry.location);
  }

  /** Answers every pending request (of one location when given): the count answered. */
  settleAll(answer: Answer, location?: EventLocation): number {
    const chosen = this.list(location ? { directory: location.directory } : {});
    for (const request of chosen) this.settle(request.id, answer);
    return chosen.length;
  }
}
