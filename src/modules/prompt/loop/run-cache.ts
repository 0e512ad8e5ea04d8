import { ResolvedLocation } from '../../locations/location.types';
import type { PromptMessage } from '../../runtime/providers/history';
import { SessionInfo } from '../../sessions/session.types';

/**
 * What one run keeps between its steps, so that a step boundary reads nothing it already knows: the session
 * (as the last step's close returned it), its resolved location, and the history in the provider's shape
 * (each step appends its own message). What may be out of date is dropped and read again at the next step:
 * - the session, by any `session.updated` of it in this process that the run did not cause (a switch, a
 *   PATCH, an `always` rule, a move applied at a boundary);
 * - the location, by its shutdown (`location.reload`) or when the session's directory changes;
 * - the history, when the drain delivers prompts at a boundary (nothing else adds messages the model sees to a
 *   running session: switches and moves add markers that are left out of the prompt).
 * The instance surface is one process that owns its sessions' drains, so its own events see every change.
 */
export class RunCache {
  history?: PromptMessage[];
  /** A step of this run failed for a full context and was tried again after compaction (once per run). */
  overflowRetried = false;
  /** The attachments the model of `history` takes (files it does not take are notes there). */
  private accepts = '';
  private session?: SessionInfo;
  private location?: { directory: string; resolved: ResolvedLocation };
  /** `session.updated` events of the session seen so far. */
  private updates = 0;
  /** The system prompt, built once per run for the location, agent prompt and provider family it was built for. */
  private systemPrompt?: { key: string; text: Promise<string> };

  constructor(readonly sessionID: string) {}

  /** The session: cached, else read (and cached unless an update came in while reading). */
  async current(read: () => Promise<SessionInfo>): Promise<SessionInfo> {
    if (this.session) return this.session;
    const before = this.updates;
    const session = await read();
    if (this.updates === before) this.session = session;
    return session;
  }

  /**
   * Runs a write of the run that returns the updated session (and publishes it as `session.updated`). Its
   * result is current when its own event is the only update seen meanwhile; otherwise the next step reads.
   */
  async write<T extends SessionInfo | undefined>(work: () => Promise<T>): Promise<T> {
    const before = this.updates;
    const session = await work();
    if (session && this.updates === before + 1) this.session = session;
    return session;
  }

  /** The resolved location of the session's directory, resolved once while it stays the same. */
  async locate(
    directory: string,
    resolve: (directory: string) => Promise<ResolvedLocation>,
  ): Promise<ResolvedLocation> {
    if (this.location?.directory === directory) return this.location.resolved;
    const resolved = await resolve(directory);
    this.location = { directory, resolved };
    return resolved;
  }

  /** The system prompt for `key`, built at the run's first step and again when the key changes. */
  system(key: string, build: () => Promise<string>): Promise<string> {
    if (this.systemPrompt?.key !== key) {
      const text = build();
      text.catch(() => (this.systemPrompt = undefined));
      this.systemPrompt = { key, text };
    }
    return this.systemPrompt.text;
  }

  /** The history for a model that takes `accepts`; undefined when it must be read (again). */
  historyFor(accepts: ReadonlySet<string>): PromptMessage[] | undefined {
    const key = [...accepts].sort().join(',');
    if (key !== this.accepts) {
      this.accepts = key;
      this.history = undefined;
    }
    return this.history;
  }

  sessionUpdated(): void {
    this.updates += 1;
    this.session = undefined;
  }

  locationShutdown(directory: string): void {
    if (this.location?.resolved.directory === directory) this.location = undefined;
    this.systemPrompt = undefined; // instruction files and config may have changed
  }
}
