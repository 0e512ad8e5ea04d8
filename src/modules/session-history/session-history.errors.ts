import { TaggedError } from '@/common/errors';

/** An operation opencode's clients know that Outpost's runtime cannot carry out (e.g. compaction, revert). */
export class NotSupportedError extends TaggedError {
  readonly status = 501;
  constructor(operation: string, reason: string) {
    super(`${operation} is not supported by Outpost: ${reason}`, { operation });
  }
}
