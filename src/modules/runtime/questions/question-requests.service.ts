import { Injectable } from '@nestjs/common';
import { Clock } from '@/common/clock';
import { EventLocation, EventsPublisher } from '@/common/events';
import { ascendingId } from '@/common/ids';
import { PendingAsks } from '../pending-asks';
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

/** The model's questions waiting for the person (the `question` tool), kept like permission requests. */
@Injectable()
export class QuestionRequestsService {
  private readonly pending: PendingAsks<QuestionRequest, QuestionOutcome>;

  constructor(
    private readonly events: EventsPublisher,
    private readonly clock: Clock,
  ) {
    this.pending = new PendingAsks((request, outcome, location) => {
      const ids = { sessionID: request.sessionID, requestID: request.id };
      if (outcome.status === 'replied') {
        this.events.publish('question.replied', { ...ids, answers: outcome.answers }, location);
      } else this.events.publish('question.rejected', ids, location);
    });
  }

  /** Publishes `question.asked`; `answer` settles on reply, reject, `rejectAll` or abort. */
  ask(input: QuestionInput): { request: QuestionRequest; answer: Promise<QuestionOutcome> } {
    const request: QuestionRequest = {
      id: ascendingId('que', this.clock.now()),
      sessionID: input.sessionID,
      questions: input.questions,
      ...(input.tool ? { tool: input.tool } : {}),
    };
    const interrupted: QuestionOutcome = { status: 'rejected', reason: 'interrupted', byPerson: false };
    const answer = this.pending.wait(request, interrupted, input);
    if (!input.signal?.aborted) this.events.publish('question.asked', request, input.location);
    return { request, answer };
  }

  /** Pending questions, oldest first: of one session, or of the sessions at one location (directory). */
  list(filter: { sessionID?: string; directory?: string } = {}): QuestionRequest[] {
    return this.pending.list(filter);
  }

  /** The person's answers, one list of labels per question (of `sessionID` when given, else 404). */
  reply(requestID: string, answers: QuestionAnswer[], sessionID?: string): void {
    if (!this.pending.get(requestID, sessionID)) throw new QuestionNotFoundError(requestID);
    this.pending.settle(requestID, { status: 'replied', answers });
  }

  /** The person dismissed the question: the turn ends. */
  reject(requestID: string, sessionID?: string): void {
    if (!this.pending.get(requestID, sessionID)) throw new QuestionNotFoundError(requestID);
    this.pending.settle(requestID, { status: 'rejected', reason: 'dismissed', byPerson: true });
  }

  /** Rejects every pending question (of one location when given): location reload, shutdown. */
  rejectAll(reason: string, location?: EventLocation): void {
    this.pending.settleAll({ status: 'rejected', reason, byPerson: false }, location);
  }
}
