import { Injectable } from '@nestjs/common';
import { Clock } from '@/common/clock';
import { EventLocation, EventsPublisher } from '@/common/events';
import { ascendingId } from '@/common/ids';
import { QuestionNotFoundError } from './questions.errors';
import { QuestionAnswer, QuestionInfo, QuestionOutcome, QuestionRequest } from './question.types';

export interface QuestionInput {
  sessionID: string;
  questions: QuestionInfo[];
  tool?: { messageID: string; callID: string };
  location?: EventLocation;
  /** Aborting (interrupt) withdraws the question; it settles as rejected. */
  signal?: AbortSignal;
}

interface Pending {
  request: QuestionRequest;
  location?: EventLocation;
  settle: (outcome: QuestionOutcome) => void;
}

/**
 * The model's questions waiting for the person (the `question` tool), in memory like permission requests: they
 * belong to the running drains of this process, which wait on `answer`.
 */
@Injectable()
export class QuestionRequestsService {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly events: EventsPublisher,
    private readonly clock: Clock,
  ) {}

  /** Publishes `question.asked`; `answer` settles on reply, reject, `rejectAll` or abort. */
  ask(input: QuestionInput): { request: QuestionRequest; answer: Promise<QuestionOutcome> } {
    const request: QuestionRequest = {
      id: ascendingId('que', this.clock.now()),
      sessionID: input.sessionID,
      questions: input.questions,
      ...(input.tool ? { tool: input.tool } : {}),
    };
    const interrupted: QuestionOutcome = { status: 'rejected', reason: 'interrupted', byPerson: false };
    if (input.signal?.aborted) return { request, answer: Promise.resolve(interrupted) };
    const answer = new Promise<QuestionOutcome>((resolve) => {
      const onAbort = () => this.settle(request.id, interrupted);
      input.signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(request.id, {
        request,
        location: input.location,
        settle: (outcome) => {
          input.signal?.removeEventListener('abort', onAbort);
          resolve(outcome);
        },
      });
    });
    this.events.publish('question.asked', request, input.location);
    return { request, answer };
  }

  /** Pending questions, oldest first: of one session, or of the sessions at one location (directory). */
  list(filter: { sessionID?: string; directory?: string } = {}): QuestionRequest[] {
    return [...this.pending.values()]
      .filter((p) => filter.sessionID === undefined || p.request.sessionID === filter.sessionID)
      .filter((p) => filter.directory === undefined || p.location?.directory === filter.directory)
      .map((p) => p.request)
      .sort((a, b) => (a.id < b.id ? -1 : 1));
  }

  /** The person's answers, one list of labels per question (of `sessionID` when given, else 404). */
  reply(requestID: string, answers: QuestionAnswer[], sessionID?: string): void {
    this.find(requestID, sessionID);
    this.settle(requestID, { status: 'replied', answers });
  }

  /** The person dismissed the question: the turn ends. */
  reject(requestID: string, sessionID?: string): void {
    this.find(requestID, sessionID);
    this.settle(requestID, { status: 'rejected', reason: 'dismissed', byPerson: true });
  }

  /** Rejects every pending question (of one location when given): location reload, shutdown. */
  rejectAll(reason: string, location?: EventLocation): void {
    for (const pending of [...this.pending.values()]) {
      if (location && pending.location?.directory !== location.directory) continue;
      this.settle(pending.request.id, { status: 'rejected', reason, byPerson: false });
    }
  }

  private find(requestID: string, sessionID?: string): Pending {
    const pending = this.pending.get(requestID);
    if (!pending || (sessionID !== undefined && pending.request.sessionID !== sessionID)) {
      throw new QuestionNotFoundError(requestID);
    }
    return pending;
  }

  private settle(requestID: string, outcome: QuestionOutcome): void {
    const pending = this.pending.get(requestID);
    if (!pending) return;
    this.pending.delete(requestID);
    pending.settle(outcome);
    const { sessionID } = pending.request;
    if (outcome.status === 'replied') {
      this.events.publish(
        'question.replied',
        { sessionID, requestID, answers: outcome.answers },
        pending.location,
      );
    } else this.events.publish('question.rejected', { sessionID, requestID }, pending.location);
  }
}
