import { TaggedError } from '@/common/errors';

/** The session, its agent and the location's config name no model to run the prompt with. */
export class NoModelConfiguredError extends TaggedError {
  readonly status = 400;
  constructor(directory: string) {
    super(
      `No model configured for ${directory}: select one (session.switchModel) or add a provider to the config`,
      { directory },
    );
  }
}
