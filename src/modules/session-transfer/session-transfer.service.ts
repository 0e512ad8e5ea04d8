import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '@/common/clock';
import { errorRef, InvalidRequestError, UnknownError } from '@/common/errors';
import { LocationsService } from '../locations/locations.service';
import { usdToMicroCents } from '@/common/money';
import { SessionMessageInfo } from '../sessions/session-message.types';
import {
  ModelRef,
  Ruleset,
  SessionFork,
  SessionInfo,
  SessionOutcome,
  Tokens,
} from '../sessions/session.types';
import { AppendMessageInput, TranscriptPage } from '../sessions/session-inputs';
import { SessionsService } from '../sessions/sessions.service';
import { isSettled, sanitizeMessage, sanitizeSession } from './sanitize';
import { checkMessage, checkSessionInfo, SchemaFailure } from './transfer-schema';

/** What one query of an export reads at most: messages, and bytes of stored data. */
export const EXPORT_PAGE = { messages: 1000, bytes: 1024 * 1024 };

export interface ImportInput {
  info: Record<string, unknown>;
  messages: unknown[];
  location?: { directory?: string | null } | null;
}

/** An export ready to write: the session, then its settled messages page by page (each decoded as read). */
export interface SessionExport {
  info: SessionInfo;
  pages: AsyncIterable<Iterable<SessionMessageInfo>>;
}

/** The `Session.Info` members an import reads, once checked. */
interface ImportedInfo {
  id: string;
  parentID?: string;
  fork?: SessionFork;
  agent?: string;
  model?: ModelRef;
  cost: number;
  tokens: Tokens;
  outcome?: SessionOutcome;
  time: { created: number; idle?: number; viewed?: number; archived?: number };
  title?: string;
  location?: { directory: string };
  metadata?: Record<string, unknown>;
  permissions?: Ruleset;
}

function invalid(failure: SchemaFailure): InvalidRequestError {
  return new InvalidRequestError(failure.message, failure.field, 'Body');
}

/** Sessions in and out as `SessionTransfer.Data` (reference §7.10). */
@Injectable()
export class SessionTransferService {
  private readonly logger = new Logger('SessionTransfer');

  constructor(
    private readonly sessions: SessionsService,
    private readonly locations: LocationsService,
    private readonly clock: Clock,
  ) {}

  /**
   * The session, and its settled messages read in keyset pages, in two passes so that memory stays
   * bounded whatever the size and a bad row is still an error response. The first pass checks every stored
   * message (an undecodable row throws UnknownError with a `ref` that the log carries) before anything is
   * sent, and notes the last id. The second runs as the caller reads: up to that id again (messages added
   * since are left out), settled only, sanitized when asked. A row that went bad between the passes fails
   * the second pass with the same logged UnknownError, by then mid-response: the caller cuts the response.
   */
  async export(sessionID: string, sanitize: boolean): Promise<SessionExport> {
    const info = await this.sessions.get(sessionID);
    let through: string | undefined;
    for await (const page of this.pages(sessionID, undefined)) {
      for (const message of page.messages()) this.decodable(sessionID, message);
      through = page.last ?? through;
    }
    const pages = async function* (this: SessionTransferService) {
      if (through === undefined) return;
      for await (const page of this.pages(sessionID, through)) yield this.settled(sessionID, page, sanitize);
    }.call(this);
    return { info: sanitize ? sanitizeSession(info) : info, pages };
  }

  /** The second pass checks again: a row that went bad since the first must not go out as if it were fine. */
  private *settled(
    sessionID: string,
    page: TranscriptPage,
    sanitize: boolean,
  ): Generator<SessionMessageInfo> {
    for (const message of page.messages()) {
      this.decodable(sessionID, message);
      if (isSettled(message)) yield sanitize ? sanitizeMessage(message) : message;
    }
  }

  private decodable(sessionID: string, message: SessionMessageInfo): void {
    try {
      checkMessage(message, 'message');
    } catch (error) {
      if (!(error instanceof SchemaFailure)) throw error;
      const ref = errorRef();
      this.logger.error(
        { ref, sessionID, messageID: message.id, field: error.field, reason: error.reason },
        `undecodable message ${message.id} in ${sessionID} (${ref})`,
      );
      throw new UnknownError(ref);
    }
  }

  /** Checks everything, then stores the session and its settled messages in one transaction. */
  async import(input: ImportInput): Promise<SessionInfo> {
    const info = this.checked(input);
    const messages = (input.messages as SessionMessageInfo[]).filter(isSettled);
    const location = await this.locations.resolve(input.location?.directory ?? info.location?.directory);
    const now = this.clock.now();
    return this.sessions.importSession(
      {
        id: info.id,
        parentId: info.parentID ?? null,
        fork: info.fork ?? null,
        projectId: location.project.id,
        directory: location.directory,
        subpath: location.subpath,
        agent: info.agent ?? null,
        model: info.model ?? null,
        title: info.title ?? `New session - ${new Date(info.time.created).toISOString()}`,
        metadata: info.metadata ?? null,
        permissions: info.permissions ?? null,
        cost: Number(usdToMicroCents(info.cost)),
        tokens: {
          input: info.tokens.input,
          output: info.tokens.output,
          reasoning: info.tokens.reasoning,
          cacheRead: info.tokens.cache.read,
          cacheWrite: info.tokens.cache.write,
        },
        outcome: info.outcome ?? null,
        time: {
          created: info.time.created,
          updated: now,
          idle: info.time.idle ?? null,
          viewed: info.time.viewed ?? null,
          archived: info.time.archived ?? null,
        },
      },
      messages as AppendMessageInput[],
    );
  }

  private checked(input: ImportInput): ImportedInfo {
    const seen = new Map<string, number>();
    try {
      checkSessionInfo(input.info, 'info');
      input.messages.forEach((message, index) => {
        checkMessage(message, `messages.${index}`);
        const id = (message as SessionMessageInfo).id;
        const first = seen.get(id);
        if (first !== undefined)
          throw new SchemaFailure(`messages.${index}.id`, `repeats the id of messages.${first}`);
        seen.set(id, index);
      });
    } catch (error) {
      if (error instanceof SchemaFailure) throw invalid(error);
      throw error;
    }
    return input.info as unknown as ImportedInfo;
  }

  /**
   * The stored messages (up to `through` when given) in keyset pages of EXPORT_PAGE, until one comes back
   * empty; the next page is read while the caller works on the current one.
   */
  private async *pages(sessionID: string, through: string | undefined): AsyncGenerator<TranscriptPage> {
    const read = (after: string | undefined) => {
      const page = this.sessions.transcriptPage(sessionID, { after, through }, EXPORT_PAGE);
      page.catch(() => undefined); // awaited below; a caller that stops early leaves it unobserved
      return page;
    };
    for (let next = read(undefined); ;) {
      const page = await next;
      if (page.count === 0) return;
      next = read(page.last);
      yield page;
    }
  }
}
