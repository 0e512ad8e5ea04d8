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
import { StreamedBody } from '@/common/http/body-parsers';
import { RequestValidationPipe } from '@/common/http/validation.pipe';
import { ResolvedLocation } from '../locations/location.types';
import { AppendMessageInput, IMPORT_CHUNK, TranscriptPage } from '../sessions/session-inputs';
import { ImportSessionDto } from './dto/import-session.dto';
import { importParts, parsePart } from './import-parts';
import { SessionsService } from '../sessions/sessions.service';
import { isSettled, sanitizeMessage, sanitizeSession } from './sanitize';
import { checkMessage, checkSessionInfo, SchemaFailure } from './transfer-schema';

/** What one query of an export reads at most: messages, and bytes of stored data. */
export const EXPORT_PAGE = { messages: 1000, bytes: 1024 * 1024 };

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

/** The session row an import stores. */
type ImportedSession = Parameters<SessionsService['importSession']>[0];

function invalid(failure: SchemaFailure): InvalidRequestError {
  return new InvalidRequestError(failure.message, failure.field, 'Body');
}

/** A member's value: `messages` as `[]` when it is an array (its elements come as parts of their own). */
function memberValue(key: string, text: string): unknown {
  return key === 'messages' && text === '[]' ? [] : parsePart(text, key);
}

const headPipe = new RequestValidationPipe();

/**
 * The body but its messages checked as the DTO says (`info` an object, `location` a LocationRef, no other member),
 * then `info` as `Session.Info`.
 */
async function checkedHead(head: Record<string, unknown>): Promise<ImportedInfo> {
  await headPipe.transform(head, { type: 'body', metatype: ImportSessionDto });
  try {
    checkSessionInfo(head.info, 'info');
  } catch (error) {
    if (error instanceof SchemaFailure) throw invalid(error);
    throw error;
  }
  return head.info as ImportedInfo;
}

/** A member of the body not seen before (JSON would keep the last of two; an import refuses them). */
function newMember(head: Record<string, unknown>, key: string): string {
  if (key in head) throw new InvalidRequestError(`${key}: appears twice in the body`, key, 'Body');
  return key;
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

  /**
   * Reads the body as it arrives (`importParts`) and stores the session and its settled messages in one transaction,
   * IMPORT_CHUNK messages at a time: memory holds a batch, whatever the body's size. `info` (and `location` when it
   * comes first, as exports have it) is checked before the first message is stored; messages that come before
   * `info` wait in memory for it, and a `location` after the messages moves the session before the commit. A part
   * that fails its check rolls everything back: a 400 naming it (`messages.12.type`).
   */
  async import(body: StreamedBody | undefined): Promise<SessionInfo> {
    if (!body) throw new InvalidRequestError('Body must be a JSON object', undefined, 'Body');
    const parts = importParts(body)[Symbol.asyncIterator]();
    const head: Record<string, unknown> = {};
    const seen = new Map<string, number>();
    const early: SessionMessageInfo[] = [];
    for (;;) {
      const next = await parts.next();
      if (next.done) break;
      const part = next.value;
      if (part.kind === 'message') early.push(this.checkedMessage(part.text, part.index, seen));
      else head[newMember(head, part.key)] = memberValue(part.key, part.text);
      if ('info' in head && 'messages' in head) break;
    }
    const info = await checkedHead(head);
    let late: unknown;
    const batches = async function* (this: SessionTransferService): AsyncGenerator<AppendMessageInput[]> {
      let batch = early.filter(isSettled);
      early.length = 0;
      for (;;) {
        if (batch.length >= IMPORT_CHUNK) {
          yield batch;
          batch = [];
        }
        const next = await parts.next();
        if (next.done) break;
        const part = next.value;
        if (part.kind === 'message') {
          const message = this.checkedMessage(part.text, part.index, seen);
          if (isSettled(message)) batch.push(message);
          continue;
        }
        const key = newMember(head, part.key);
        head[key] = memberValue(key, part.text);
        await checkedHead({ ...head, messages: [] });
        if (key === 'location') late = head.location;
      }
      if (batch.length > 0) yield batch;
    }.call(this);
    const where = (location: unknown) =>
      this.locations.resolve(
        (location as { directory?: string | null } | null | undefined)?.directory ?? info.location?.directory,
      );
    const location = await where(head.location);
    const moved = async () => {
      if (late === undefined) return undefined;
      const to = await where(late);
      return { projectId: to.project.id, directory: to.directory, subpath: to.subpath };
    };
    return this.sessions.importSession(this.imported(info, location), batches, moved);
  }

  /** The session row of an import, from its checked `info`, where it goes. */
  private imported(info: ImportedInfo, location: ResolvedLocation): ImportedSession {
    return {
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
        updated: this.clock.now(),
        idle: info.time.idle ?? null,
        viewed: info.time.viewed ?? null,
        archived: info.time.archived ?? null,
      },
    };
  }

  /** A message of the body, checked (its id not one an earlier message had). */
  private checkedMessage(text: string, index: number, seen: Map<string, number>): SessionMessageInfo {
    const field = `messages.${index}`;
    const message = parsePart(text, field);
    try {
      checkMessage(message, field);
    } catch (error) {
      if (error instanceof SchemaFailure) throw invalid(error);
      throw error;
    }
    const id = (message as SessionMessageInfo).id;
    const first = seen.get(id);
    if (first !== undefined)
      throw invalid(new SchemaFailure(`${field}.id`, `repeats the id of messages.${first}`));
    seen.set(id, index);
    return message as SessionMessageInfo;
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
