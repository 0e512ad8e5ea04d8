import { TaggedError } from '@/common/errors';

/** The model could not write the summary (a provider error): the transcript is left as it was. */
export class CompactionFailedError extends TaggedError {
  readonly status = 502;
  constructor(sessionID: string, reason: string) {
    super(`Compacting session ${sessionID} failed: ${reason}`, { sessionID });
  }
}
