/** One choice of a question (opencode's `QuestionOption`). */
export interface QuestionOption {
  label: string;
  description: string;
}

/** One question the model asks the person (opencode's `QuestionInfo`). */
export interface QuestionInfo {
  question: string;
  /** A very short label (the TUI's tab). */
  header: string;
  options: QuestionOption[];
  /** More than one option may be chosen. */
  multiple?: boolean;
}

/** The labels chosen (or the text typed) for one question, in the order of the questions. */
export type QuestionAnswer = string[];

/** A pending `question` tool call, as `GET /question` lists it and `question.asked` sends it. */
export interface QuestionRequest {
  id: string;
  sessionID: string;
  questions: QuestionInfo[];
  tool?: { messageID: string; callID: string };
}

/** How a request was settled: the person's answers, or a rejection (by the person, a reload, an interrupt). */
export type QuestionOutcome =
  | { status: 'replied'; answers: QuestionAnswer[] }
  | { status: 'rejected'; reason: string; byPerson: boolean };
