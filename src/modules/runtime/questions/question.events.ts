import type { QuestionAnswer, QuestionRequest } from './question.types';

/** The question events (QuestionRequestsService), added to the event catalog. */
declare module '@/common/events/event-catalog' {
  interface EventCatalog {
    'question.asked': QuestionRequest;
    'question.replied': { sessionID: string; requestID: string; answers: QuestionAnswer[] };
    'question.rejected': { sessionID: string; requestID: string };
  }
}
