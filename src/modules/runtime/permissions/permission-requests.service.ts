import { Injectable } from '@nestjs/common';
import { Clock } from '@/common/clock';
import { EventLocation, EventsPublisher } from '@/common/events';
import { ascendingId } from '@/common/ids';
import { evaluate } from './evaluate';
import { PermissionRequestNotFoundError } from './permissions.errors';
import { PermissionAnswer, PermissionReply, PermissionRequest, PermissionRule } from './permission.types';

export interface AskInput {
  sessionID: string;
  permission: string;
  patterns: string[];
  /** What an `always` reply allows from now on; defaults to `patterns`. */
  always?: string[];
  metadata?: Record<string, unknown>;
  tool?: { messageID: string; callID: string };
  location?: EventLocation;
  /** Aborting (interrupt) withdraws the request; it settles as `reject` with reason `interrupted`. */
  signal?: AbortSignal;
}

interface Pending {
  request: PermissionRequest;
  location?: EventLocation;
  settle: (answer: PermissionAnswer) => void;
}

/**
 * The `ask` requests waiting for a person, in memory: they belong to the running drains of this process, which
 * wait on `answer`. A restart interrupts those drains, so nothing here needs to outlive the process.
 */
@Injectable()
export class PermissionRequestsService {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly events: EventsPublisher,
    private readonly clock: Clock,
  ) {}

  /** Publishes `permission.asked`; `answer` settles on reply, `rejectAll`, or abort. */
  ask(input: AskInput): { request: PermissionRequest; answer: Promise<PermissionAnswer> } {
    const now = this.clock.now();
    const request: PermissionRequest = {
      id: ascendingId('per', now),
      sessionID: input.sessionID,
      permission: input.permission,
      patterns: input.patterns,
      always: input.always ?? input.patterns,
      metadata: input.metadata ?? {},
      ...(input.tool ? { tool: input.tool } : {}),
      time: { created: now },
    };
    if (input.signal?.aborted) {
      return { request, answer: Promise.resolve({ reply: 'reject', rules: [], reason: 'interrupted' }) };
    }
    const answer = new Promise<PermissionAnswer>((resolve) => {
      const onAbort = () => this.settle(request.id, { reply: 'reject', rules: [], reason: 'interrupted' });
      input.signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(request.id, {
        request,
        location: input.location,
        settle: (result) => {
          input.signal?.removeEventListener('abort', onAbort);
          resolve(result);
        },
      });
    });
    this.events.publish('permission.asked', request, input.location);
    return { request, answer };
  }

  /** Pending requests, oldest first; of one session when given. */
  list(sessionID?: string): PermissionRequest[] {
    return [...this.pending.values()]
      .map((p) => p.request)
      .filter((r) => sessionID === undefined || r.sessionID === sessionID)
      .sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  /** Pending requests of the sessions at one location (project directory), oldest first. */
  inLocation(directory: string): PermissionRequest[] {
    return [...this.pending.values()]
      .filter((p) => p.location?.directory === directory)
      .map((p) => p.request)
      .sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  /**
   * Answers a request (of `sessionID` when given, else 404). `always` returns the allow rules to add to the
   * session, and also settles the session's other pending requests that those rules now allow.
   */
  reply(requestID: string, reply: PermissionReply, options: { sessionID?: string; message?: string } = {}) {
    const pending = this.pending.get(requestID);
    if (!pending || (options.sessionID !== undefined && pending.request.sessionID !== options.sessionID)) {
      throw new PermissionRequestNotFoundError(requestID);
    }
    const { request } = pending;
    const rules: PermissionRule[] =
      reply === 'always'
        ? request.always.map((resource) => ({ action: request.permission, resource, effect: 'allow' }))
        : [];
    const answer: PermissionAnswer = {
      reply,
      rules,
      byPerson: true,
      ...(reply === 'reject' && options.message ? { reason: options.message } : {}),
    };
    this.settle(requestID, answer);
    if (reply === 'always') {
      for (const other of this.list(request.sessionID)) {
        const allowed = other.patterns.every(
          (resource) => evaluate(other.permission, resource, rules).effect === 'allow',
        );
        if (allowed) this.settle(other.id, { reply: 'once', rules: [] });
      }
    }
    return answer;
  }

  /** Rejects every pending request (of one location when given): location reload, shutdown. */
  rejectAll(reason: string, location?: EventLocation): number {
    let count = 0;
    for (const pending of [...this.pending.values()]) {
      if (location && pending.location?.directory !== location.directory) continue;
      this.settle(pending.request.id, { reply: 'reject', rules: [], reason });
      count++;
    }
    return count;
  }

  private settle(requestID: string, answer: PermissionAnswer): void {
    const pending = this.pending.get(requestID);
    if (!pending) return;
    this.pending.delete(requestID);
    pending.settle(answer);
    this.events.publish(
      'permission.replied',
      { sessionID: pending.request.sessionID, requestID, reply: answer.reply },
      pending.location,
    );
  }
}
