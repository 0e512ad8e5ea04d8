import { Injectable } from '@nestjs/common';
import { isDeepStrictEqual } from 'node:util';
import { Transaction } from '@/database/transaction';
import { Clock } from '@/common/clock';
import { ConflictError } from '@/common/errors';
import { EventsPublisher } from '@/common/events';
import { RenderedJson } from '@/common/http/rendered-json';
import { descendingId } from '@/common/ids';
import { AgentsService } from '../agents/agents.service';
import { LocationsService } from '../locations/locations.service';
import { MessageNotFoundError, SessionNotFoundError } from './sessions.errors';
import { textRowToMessageInfo, toMessageInfo, toSessionInfo } from './session.mapper';
import { SessionMessageInfo } from './session-message.types';
import { Ruleset, SessionFork, SessionInfo, SessionOutcome, SessionRevert, Tokens } from './session.types';
import { SessionsActivity } from './sessions-activity';
import { SessionMessagesRepository } from './session-messages.repository';
import { ImportedSession, SessionChanges, SessionRow, SessionsRepository } from './sessions.repository';
import {
  DEFAULT_AGENT,
  modelRef,
  isForeignKeyViolation,
  storedParts,
  defaultTitle,
  storedMessage,
  type ModelRefInput,
  type CreateSessionInput,
  type UpdateSessionInput,
  type AppendMessageInput,
  type Delivery,
  type TranscriptPage,
} from './session-inputs';

@Injectable()
export class SessionsService {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly transcript: SessionMessagesRepository,
    private readonly locations: LocationsService,
    private readonly agents: AgentsService,
    private readonly activity: SessionsActivity,
    private readonly events: EventsPublisher,
    private readonly clock: Clock,
  ) {}

  async create(input: CreateSessionInput): Promise<SessionInfo> {
    const now = this.clock.now();
    let place: { directory: string; projectId: string; subpath: string };
    let metadata = input.metadata ?? null;
    if (input.parentID) {
      const parent = await this.require(input.parentID);
      place = { directory: parent.directory, projectId: parent.project_id, subpath: parent.subpath };
      if (input.metadata === undefined || input.metadata === null) metadata = parent.metadata;
    } else {
      const location = await this.locations.resolve(input.location?.directory);
      place = { directory: location.directory, projectId: location.project.id, subpath: location.subpath };
    }
    if (input.agent) await this.agents.get(await this.locations.resolve(place.directory), input.agent);
    const id = input.id ?? descendingId('ses', now);
    const row = await this.sessions
      .insert({
        id,
        parentId: input.parentID ?? null,
        fork: null,
        ...place,
        agent: input.agent ?? DEFAULT_AGENT,
        model: input.model ? modelRef(input.model) : null,
        title: input.title ?? defaultTitle(now),
        metadata,
        permissions: input.permissions ?? null,
        time: now,
      })
      .catch((error: unknown) => {
        // The parent was deleted between the lookup and the insert.
        if (isForeignKeyViolation(error)) throw new SessionNotFoundError(input.parentID!);
        throw error;
      });
    if (!row) throw new ConflictError(`Session already exists: ${id}`, id);
    return this.published('session.created', row);
  }

  async get(id: string): Promise<SessionInfo> {
    return toSessionInfo(await this.require(id));
  }

  /** `session.get`'s body, `{ data: Session.Info }`, from the JSON the database keeps rendered. */
  async getRendered(id: string): Promise<RenderedJson<{ data: SessionInfo }>> {
    const info = await this.sessions.findInfo(id);
    if (info === undefined) throw new SessionNotFoundError(id);
    return new RenderedJson(`{"data":${info}}`);
  }

  async update(id: string, input: UpdateSessionInput): Promise<void> {
    const changes: SessionChanges = {};
    if (input.metadata !== undefined) changes.metadata = input.metadata;
    if (input.permissions !== undefined) changes.permissions = input.permissions;
    if (input.title !== undefined && input.title !== null) changes.title = input.title;
    if (input.title === null) {
      // Clients rely on a title being present: clearing it restores the default one.
      const row = await this.require(id);
      changes.title = defaultTitle(Number(row.time_created));
    }
    if (Object.keys(changes).length === 0) {
      await this.require(id);
      return;
    }
    const row = await this.sessions.update(id, changes, this.clock.now());
    if (!row) throw new SessionNotFoundError(id);
    this.published('session.updated', row);
  }

  /** Deletes the session, its descendants and all their messages in one statement. */
  async remove(id: string): Promise<void> {
    const rows = await this.sessions.deleteTree(id);
    if (rows.length === 0) throw new SessionNotFoundError(id);
    // Children first, so a listener never sees a child outlive its parent.
    const order = new Map(rows.map((row) => [row.id, row]));
    const depth = (row: SessionRow): number =>
      row.parent_id && order.has(row.parent_id) ? 1 + depth(order.get(row.parent_id)!) : 0;
    for (const row of [...rows].sort((a, b) => depth(b) - depth(a))) this.published('session.deleted', row);
  }

  /** A child session with a copy of the history strictly before `before`, or all of it. */
  async fork(id: string, before?: string | null): Promise<SessionInfo> {
    const source = await this.require(id);
    const location = await this.locations.resolve(source.directory);
    const now = this.clock.now();
    const row = await this.sessions.transaction(async (manager) => {
      let fork: SessionFork = { sessionID: id };
      if (before) {
        if (!(await this.transcript.messageExists(id, before, manager)))
          throw new MessageNotFoundError(id, before);
        fork = { sessionID: id, boundary: { type: 'before', messageID: before } };
      } else {
        const last = await this.transcript.lastMessageId(id, manager);
        if (last) fork = { sessionID: id, boundary: { type: 'through', messageID: last } };
      }
      const created = await this.sessions
        .insert(
          {
            id: descendingId('ses', now),
            parentId: id,
            fork,
            directory: location.directory,
            projectId: location.project.id,
            subpath: location.subpath,
            agent: source.agent,
            model: source.model,
            title: `${source.title} (fork)`,
            metadata: source.metadata,
            permissions: source.permissions,
            time: now,
          },
          manager,
        )
        .catch((error: unknown) => {
          if (isForeignKeyViolation(error)) throw new SessionNotFoundError(id);
          throw error;
        });
      await this.transcript.copyMessages(id, created!.id, before ?? undefined, manager);
      return created!;
    });
    return this.published('session.created', row);
  }

  async switchAgent(id: string, agent: string): Promise<void> {
    const session = await this.require(id);
    await this.agents.get(await this.locations.resolve(session.directory), agent);
    const row = await this.switch(id, (current) => {
      const previous = current.agent ?? undefined;
      if (previous === agent) return undefined;
      return {
        changes: { agent },
        message: { type: 'agent-switched', agent, ...(previous !== undefined ? { previous } : {}) },
      };
    });
    if (row)
      this.events.publish('session.agent.selected', { sessionID: id, agent }, { directory: row.directory });
  }

  async switchModel(id: string, model: ModelRefInput): Promise<void> {
    const session = await this.require(id);
    await this.locations.resolve(session.directory);
    const next = modelRef(model);
    const row = await this.switch(id, (current) => {
      const previous = current.model ?? undefined;
      if (isDeepStrictEqual(previous, next)) return undefined;
      return {
        changes: { model: next },
        message: { type: 'model-switched', model: next, ...(previous !== undefined ? { previous } : {}) },
      };
    });
    if (row)
      this.events.publish(
        'session.model.selected',
        { sessionID: id, model: next },
        { directory: row.directory },
      );
  }

  /**
   * Moves the session to another directory. A running session applies the move at the requested boundary
   * (its drain takes it from the inbox); an idle one moves at once.
   */
  async move(id: string, directory: string, delivery?: Delivery | null): Promise<void> {
    await this.require(id);
    const location = await this.locations.resolve(directory);
    if (await this.activity.deferMove(id, location.directory, delivery ?? 'steer')) return;
    await this.applyMove(id, location.directory);
  }

  /** Moves the session now: records a `location-switched` message and publishes `session.moved`. */
  async applyMove(id: string, directory: string): Promise<void> {
    const location = await this.locations.resolve(directory);
    const row = await this.switch(id, (current) => {
      if (current.directory === location.directory) return undefined;
      const message: Record<string, unknown> = {
        type: 'location-switched',
        location: { directory: location.directory },
        projectID: location.project.id,
        previous: { directory: current.directory },
      };
      if (location.subpath !== '') message.subpath = location.subpath;
      return {
        changes: { directory: location.directory, projectId: location.project.id, subpath: location.subpath },
        message: message as AppendMessageInput,
      };
    });
    if (row) {
      const moved = { sessionID: id, location: { directory: row.directory }, projectID: row.project_id };
      this.events.publish('session.moved', row.subpath ? { ...moved, subpath: row.subpath } : moved, {
        directory: row.directory,
      });
    }
  }

  /** Appends one message to the transcript (the prompt runner and tests use it). */
  async appendMessage(sessionID: string, input: AppendMessageInput, manager?: Transaction): Promise<string> {
    const message = storedMessage(sessionID, input, this.clock.now());
    await this.transcript.insertMessage(message, manager).catch((error: unknown) => {
      if (isForeignKeyViolation(error)) throw new SessionNotFoundError(sessionID);
      throw error;
    });
    return message.id;
  }

  /**
   * Stores an imported session and its messages in one transaction (the messages in the batches they come in, then
   * the move `moved` answers, if any), then publishes `session.created`. A taken id (also one taken by a concurrent import) → ConflictError; a missing
   * parent → SessionNotFoundError.
   */
  async importSession(
    session: ImportedSession,
    batches: AsyncIterable<AppendMessageInput[]>,
    moved: () => Promise<SessionChanges | undefined>,
  ): Promise<SessionInfo> {
    const row = await this.sessions.transaction(async (manager) => {
      const created = await this.sessions.insertImported(session, manager).catch((error: unknown) => {
        if (isForeignKeyViolation(error)) throw new SessionNotFoundError(session.parentId!);
        throw error;
      });
      if (!created) throw new ConflictError(`Session already exists: ${session.id}`, session.id);
      // One batch written while the next is read and checked: the database and the parsing overlap.
      let writing: Promise<void> = Promise.resolve();
      for await (const batch of batches) {
        const rows = batch.map((message) => storedMessage(session.id, message, this.clock.now()));
        await writing;
        writing = this.transcript.insertMessages(rows, manager);
        writing.catch(() => undefined); // awaited with the next batch or after the last; a failed read ends first
      }
      await writing;
      const changes = await moved();
      if (!changes) return created;
      return (await this.sessions.update(session.id, changes, session.time.updated, manager))!;
    });
    return this.published('session.created', row);
  }

  /**
   * The transcript after the id `after` and up to `through` (inclusive) when given, in order: up to `limit`
   * messages and about `bytes` of stored data (at least one message). The rows stay JSON text until
   * iterated, then are decoded one at a time, so a page never holds all its messages as objects at once.
   */
  async transcriptPage(
    sessionID: string,
    range: { after?: string; through?: string },
    limit: { messages: number; bytes: number },
  ): Promise<TranscriptPage> {
    const rows = await this.transcript.messageTextPage(sessionID, range, limit.messages, limit.bytes);
    return {
      count: rows.length,
      last: rows.at(-1)?.id,
      *messages() {
        for (let i = 0; i < rows.length; i++) {
          const row = rows[i];
          (rows as unknown[])[i] = undefined; // read once: the text can go as soon as it is decoded
          yield textRowToMessageInfo(row);
        }
      },
    };
  }

  /** The id of the session's last message, if any. */
  lastMessageId(sessionID: string, manager?: Transaction): Promise<string | undefined> {
    return this.transcript.lastMessageId(sessionID, manager);
  }

  /** The projected transcript in order. */
  async messages(sessionID: string): Promise<SessionMessageInfo[]> {
    await this.require(sessionID);
    return (await this.transcript.messages(sessionID)).map(toMessageInfo);
  }

  /** One page of the transcript by message id; `after` is exclusive. */
  async messagePage(
    sessionID: string,
    order: 'asc' | 'desc',
    after: string | undefined,
    limit: number,
  ): Promise<SessionMessageInfo[]> {
    await this.require(sessionID);
    return (await this.transcript.messagePage(sessionID, order, after, limit)).map(toMessageInfo);
  }

  /**
   * Rewrites a streaming message (the agent loop records parts as they arrive); false when it is gone or
   * already closed (`completeStep`), so a late write never undoes a close.
   */
  updateMessage(sessionID: string, message: SessionMessageInfo): Promise<boolean> {
    const { id, time, data } = storedParts(message);
    return this.transcript.updateMessage(sessionID, id, data, time.completed ?? null);
  }

  /** Stages (or, with null, drops) a revert; publishes `session.updated`. */
  async setRevert(id: string, revert: SessionRevert | null): Promise<SessionInfo> {
    const row = await this.sessions.update(id, { revert }, this.clock.now());
    if (!row) throw new SessionNotFoundError(id);
    return this.published('session.updated', row);
  }

  /** Deletes the messages from `messageID` on (a staged revert made final), or that one only: how many went. */
  async deleteMessagesFrom(sessionID: string, messageID: string, only = false): Promise<number> {
    if (only) return Number(await this.transcript.deleteMessage(sessionID, messageID));
    return this.transcript.deleteMessagesFrom(sessionID, messageID);
  }

  /** Rewrites a closed message's content (compaction marks old tool outputs pruned); its times stay. */
  rewriteMessage(sessionID: string, message: SessionMessageInfo): Promise<boolean> {
    const { id, data } = storedParts(message);
    return this.transcript.rewriteMessage(sessionID, id, data);
  }

  /**
   * Closes an assistant step: the message as it ended, its tokens and cost (micro-cents), and the same usage
   * added to the session's totals, atomically. `next`, the message of the following step, is appended by the
   * same statement. Publishes `session.updated`; undefined (and nothing appended) when the session is gone.
   */
  async completeStep(
    sessionID: string,
    message: SessionMessageInfo,
    tokens: Tokens,
    costMicroCents: number,
    next?: AppendMessageInput,
  ): Promise<SessionInfo | undefined> {
    const { id, time, data } = storedParts(message);
    const row = await this.transcript.completeMessage(
      sessionID,
      id,
      data,
      time.completed ?? this.clock.now(),
      {
        input: tokens.input,
        output: tokens.output,
        reasoning: tokens.reasoning,
        cacheRead: tokens.cache.read,
        cacheWrite: tokens.cache.write,
      },
      costMicroCents,
      next ? storedMessage(sessionID, next, this.clock.now()) : undefined,
    );
    return row ? this.published('session.updated', row) : undefined;
  }

  /**
   * The end of a drain: `time.idle` and the outcome of the last execution. With `guard`, which runs first in the
   * same transaction, nothing changes unless it returns true (a drain checks that it still holds the session).
   */
  async markIdle(
    sessionID: string,
    outcome: SessionOutcome,
    guard?: (manager: Transaction) => Promise<boolean>,
  ): Promise<SessionInfo | undefined> {
    const now = this.clock.now();
    const changes = { outcome, timeIdle: now };
    const row = guard
      ? await this.sessions.transaction(async (manager) =>
          (await guard(manager)) ? this.sessions.update(sessionID, changes, now, manager) : undefined,
        )
      : await this.sessions.update(sessionID, changes, now);
    return row ? this.published('session.updated', row) : undefined;
  }

  /** Appends allow rules (an `always` reply) to the session's own permissions. */
  async addPermissions(sessionID: string, rules: Ruleset): Promise<void> {
    if (rules.length === 0) return;
    const row = await this.sessions.transaction(async (manager) => {
      const current = await this.sessions.findForUpdate(sessionID, manager);
      if (!current) return undefined;
      const permissions = [...(current.permissions ?? []), ...rules];
      return this.sessions.update(sessionID, { permissions }, this.clock.now(), manager);
    });
    if (row) this.published('session.updated', row);
  }

  private async require(id: string): Promise<SessionRow> {
    const row = await this.sessions.find(id);
    if (!row) throw new SessionNotFoundError(id);
    return row;
  }

  /**
   * Locks the session, asks `decide` what changes given its current state (undefined: nothing to do),
   * records the message and updates the row in one transaction, then publishes `session.updated`.
   */
  private async switch(
    id: string,
    decide: (current: SessionRow) => { changes: SessionChanges; message: AppendMessageInput } | undefined,
  ): Promise<SessionRow | undefined> {
    const now = this.clock.now();
    const row = await this.sessions.transaction(async (manager) => {
      const current = await this.sessions.findForUpdate(id, manager);
      if (!current) throw new SessionNotFoundError(id);
      const decision = decide(current);
      if (!decision) return undefined;
      await this.appendMessage(id, { ...decision.message, time: { created: now } }, manager);
      return this.sessions.update(id, decision.changes, now, manager);
    });
    if (row) this.published('session.updated', row);
    return row;
  }

  private published(
    type: 'session.created' | 'session.updated' | 'session.deleted',
    row: SessionRow,
  ): SessionInfo {
    const info = toSessionInfo(row);
    this.events.publish(type, { sessionID: info.id, info }, { directory: info.location.directory });
    return info;
  }
}
