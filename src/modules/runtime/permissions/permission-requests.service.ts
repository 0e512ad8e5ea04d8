import { Injectable } from '@nestjs/common';
import { Clock } from '@/common/clock';
import { EventLocation, EventsPublisher } from '@/common/events';
import { ascendingId } from '@/common/ids';
import { PendingAsks } from '../pending-asks';
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

/** The `ask` requests waiting for a person (see `PendingAsks`). */
@Injectable()
export class PermissionRequestsService {
  private readonly pending: PendingAsks<PermissionRequest, PermissionAnswer>;

  constructor(
    private readonly events: EventsPublisher,
    private readonly clock: Clock,
  ) {
    this.pending = new PendingAsks((request, answer, location) => {
      const replied = { sessionID: request.sessionID, requestID: request.id, reply: answer.reply };
      this.events.publish('permission.replied', replied, location);
    });
  }

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
    const interrupted: PermissionAnswer = { reply: 'reject', rules: [], reason: 'interrupted' };
    const answer = this.pending.wait(request, interrupted, input);
    if (!input.signal?.aborted) this.events.publish('permission.asked', request, input.location);
    return { request, answer };
  }

  /** Pending requests, oldest first; of one session when given. */
  list(sessionID?: string): PermissionRequest[] {
    return this.pending.list({ sessionID });
  }

  /** Pending requests of the sessions at one location (project directory), oldest first. */
  inLocation(directory: string): PermissionRequest[] {
    return this.pending.list({ directory });
  }

  /**
   * Answers a request (of `sessionID` when given, else 404). `always` returns the allow rules to add to the
   * session, and also settles the session's other pending requests that those rules now allow.
   */
  reply(requestID: string, reply: PermissionReply, options: { sessionID?: string; message?: string } = {}) {
    const request = this.pending.get(requestID, options.sessionID);
    if (!request) throw new PermissionRequestNotFoundError(requestID);
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
    this.pending.settle(requestID, answer);
    if (reply === 'always') {
      for (const other of this.list(request.sessionID)) {
        const allowed = other.patterns.every(
          (resource) => evaluate(other.permission, resource, rules).effect === 'allow',
        );
        if (allowed) this.pending.settle(other.id, { reply: 'once', rules: [] });
      }
    }
    return answer;
  }

  /** Rejects every pending request (of one location when given): location reload, shutdown. */
  rejectAll(reason: string, location?: EventLocation): number {
    return this.pending.settleAll({ reply: 'reject', rules: [], reason }, location);
  }
}
