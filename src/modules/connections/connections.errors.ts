import { TaggedError } from '@/common/errors';
import { ConsoleNotFoundError } from '../console-access/console-access.errors';

/** No such connection in this workspace (tag `NotFound`, with `connection_id`). */
export class ConnectionNotFoundError extends ConsoleNotFoundError {
  constructor(readonly connectionId: string) {
    super(`Connection not found: ${connectionId}`, { connection_id: connectionId });
  }
}

/**
 * The stored credential cannot be decrypted: it was altered, or the server's secret key (`OUTPOST_SECRET_KEY` or
 * the generated file) is not the one it was encrypted with. An owner or admin has to enter it again.
 */
export class ConnectionCredentialError extends TaggedError {
  readonly status = 502;
  constructor(readonly connectionId: string) {
    super(
      `The credential of connection ${connectionId} cannot be decrypted (was the server's secret key changed?); enter it again`,
      { connection_id: connectionId },
    );
  }
}

/** No such web search provider in this workspace (tag `NotFound`, with `search_provider_id`). */
export class SearchProviderNotFoundError extends ConsoleNotFoundError {
  constructor(readonly searchProviderId: string) {
    super(`Search provider not found: ${searchProviderId}`, { search_provider_id: searchProviderId });
  }
}
