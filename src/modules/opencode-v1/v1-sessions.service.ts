import { Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { pathToFileURL } from 'node:url';
import { ConflictError, InvalidRequestError } from '@/common/errors';
import { EventsPublisher, OutpostEvent, PUBLISHED_EVENT } from '@/common/events';
import { LocationsService } from '../locations/locations.service';
import { DrainsService } from '../prompt/drains.service';
import { PromptService } from '../prompt/prompt.service';
import { CommandsService } from '../prompt/commands/commands.service';
import { SessionShell } from '../prompt/shell/session-shell';
import { PermissionRequestsService } from '../runtime/permissions/permission-requests.service';
import { PermissionReply } from '../runtime/permissions/permission.types';
import { MessageNotFoundError } from '../sessions/sessions.errors';
import { SessionsPager } from '../sessions/sessions-pager';
import { SessionsActivity } from '../sessions/sessions-activity';
import { latestTodos, Todo } from '../runtime/tools/todo.tools';
import { SessionsService } from '../sessions/sessions.service';
import { SessionsPage } from '../sessions/session.types';
import { V1CommandDto } from './dto/v1-misc.dto';
import { V1CreateSessionDto, V1ListSessionsQueryDto, V1PromptDto, V1ShellDto } from './dto/v1-session.dto';
import { fromV1Rule, v1Messages, v1Permission, v1Session } from './v1-shapes';
import { v1ShellMessages } from './v1-turn-shapes';

/**
 * v1 sessions on Outpost's sessions: create, list, get, update, delete, the transcript as v1 messages with parts,
 * and `POST /session/{id}/message`, which admits the prompt to the real agent loop and answers with the
 * assistant's last message once the run has ended.
 */
@Injectable()
export class V1SessionsService {
  constructor(
    private readonly sessions: SessionsService,
    private readonly pager: SessionsPager,
    private readonly activity: SessionsActivity,
    private readonly locations: LocationsService,
    private readonly prompts: PromptService,
    private readonly shells: SessionShell,
    private readonly commands: CommandsService,
    private readonly drains: DrainsService,
    private readonly permissions: PermissionRequestsService,
    private readonly emitter: EventEmitter2,
    private readonly events: EventsPublisher,
  ) {}

  async create(body: V1CreateSessionDto, directory?: string) {
    const info = await this.sessions.create({
      parentID: body.parentID,
      title: body.title,
      agent: body.agent,
      model: body.model
        ? { id: body.model.id ?? body.model.modelID!, providerID: body.model.providerID }
        : null,
      location: directory ? { directory } : null,
      permissions: body.permission ? body.permission.map(fromV1Rule) : null,
    });
    return v1Session(info);
  }

  async list(query: V1ListSessionsQueryDto, directory?: string) {
    const page = await this.pager.list({
      ...(directory ? { directory: (await this.locations.resolve(directory)).directory } : {}),
      ...(query.search ? { search: query.search } : {}),
      ...(query.roots === 'true' ? { parentID: null } : {}),
      limit: query.limit === undefined ? 100 : Number(query.limit),
    });
    const sessions = (JSON.parse(page.text) as SessionsPage).data;
    const start = query.start === undefined ? undefined : Number(query.start);
    return sessions
      .filter((s) => start === undefined || s.time.updated >= start)
      .map((session) => v1Session(session));
  }

  /** The child sessions (subagent tasks) of a session, oldest first. */
  async children(id: string) {
    await this.sessions.get(id);
    const page = await this.pager.list({ parentID: id, limit: 200, order: 'asc' });
    return (JSON.parse(page.text) as SessionsPage).data.map((session) => v1Session(session));
  }

  async get(id: string) {
    return v1Session(await this.sessions.get(id));
  }

  async update(id: string, title?: string) {
    if (title !== undefined) await this.sessions.update(id, { title });
    return this.get(id);
  }

  /**
   * `POST /session/{id}/command`: the command's template with the arguments filled in, prompted like a message
   * (with the command's agent and model when it names them), answered once the run has ended.
   */
  async command(id: string, body: V1CommandDto) {
    const session = await this.sessions.get(id);
    const location = await this.locations.resolve(session.location.directory);
    const { command, text, files } = await this.commands.render(
      session,
      location,
      body.command,
      body.arguments ?? '',
      body.agent,
    );
    const model = parseModel(command.model ?? body.model);
    const attached = files.map((path) => ({
      type: 'file',
      mime: 'text/plain',
      url: pathToFileURL(path).href,
    }));
    return this.prompt(
      id,
      {
        parts: [{ type: 'text', text }, ...attached],
        ...((command.agent ?? body.agent) ? { agent: command.agent ?? body.agent } : {}),
        ...(model ? { model } : {}),
        ...(body.variant ? { variant: body.variant } : {}),
      } as V1PromptDto,
      true,
    );
  }

  /** The location's command templates, as v1 lists them. */
  async commandList(directory?: string) {
    return this.commands.list(await this.locations.resolve(directory));
  }

  /** The session's todo list: what its last `todowrite` call wrote. */
  async todos(id: string): Promise<Todo[]> {
    await this.sessions.get(id);
    return latestTodos(await this.sessions.messages(id));
  }

  async fork(id: string, before?: string) {
    return v1Session(await this.sessions.fork(id, before ?? null));
  }

  async remove(id: string): Promise<true> {
    await this.sessions.remove(id);
    return true;
  }

  async messages(id: string, limit?: number) {
    const info = await this.sessions.get(id);
    const all = v1Messages(await this.sessions.messages(id), id, info.location.directory);
    return limit === undefined ? all : all.slice(-limit);
  }

  /** `DELETE /session/{id}/message/{messageID}`: the message goes (announced as removed); the rest stays. */
  async deleteMessage(id: string, messageID: string): Promise<true> {
    const info = await this.sessions.get(id);
    if (this.activity.active()[id]) {
      throw new ConflictError(`Session ${id} is running; delete messages once it is idle`, id);
    }
    const stored = (await this.sessions.messages(id)).find(
      (m) => m.id === messageID || (m as { answerID?: string }).answerID === messageID,
    );
    if (!stored || !(await this.sessions.deleteMessagesFrom(id, stored.id, true))) {
      throw new MessageNotFoundError(id, messageID);
    }
    const answerID = (stored as { answerID?: string }).answerID;
    this.events.publish(
      'session.message.removed',
      { sessionID: id, messageID: stored.id, ...(answerID ? { answerID } : {}) },
      info.location,
    );
    return true;
  }

  async message(id: string, messageID: string) {
    const found = (await this.messages(id)).find((m) => m.info.id === messageID);
    if (!found) throw new MessageNotFoundError(id, messageID);
    return found;
  }

  status(): Record<string, { type: 'busy' }> {
    return Object.fromEntries(
      Object.keys(this.activity.active()).map((id) => [id, { type: 'busy' as const }]),
    );
  }

  async abort(id: string): Promise<true> {
    await this.sessions.get(id);
    await this.drains.interrupt(id);
    return true;
  }

  /** Admits the prompt; with `wait`, answers once the run has ended with the last assistant message. */
  async prompt(id: string, body: V1PromptDto, wait: boolean) {
    const session = await this.sessions.get(id);
    const model = body.model;
    if (model && (session.model?.id !== model.modelID || session.model?.providerID !== model.providerID)) {
      await this.sessions.switchModel(id, {
        id: model.modelID,
        providerID: model.providerID,
        variant: body.variant,
      });
    }
    if (body.agent && body.agent !== (session.agent ?? 'build'))
      await this.sessions.switchAgent(id, body.agent);
    const text = body.parts
      .filter((part) => part.type === 'text' && typeof part.text === 'string')
      .map((part) => part.text)
      .join('\n');
    const fileParts = body.parts.flatMap((part, index) =>
      part.type === 'file' && typeof part.url === 'string' ? [{ part, index }] : [],
    );
    const files = fileParts.map(({ part }) => ({ uri: part.url, mime: part.mime, name: part.filename }));
    if (!text && files.length === 0)
      throw new InvalidRequestError('parts must hold a text or a file part', 'parts');
    const idle = wait ? this.idle(id) : undefined;
    try {
      await this.prompts.prompt(id, {
        text,
        ...(files.length ? { files } : {}),
        ...(body.noReply ? { resume: false } : {}),
      });
    } catch (error) {
      idle?.cancel();
      throw v1FileError(error, fileParts);
    }
    if (!idle) return undefined;
    if (body.noReply) {
      idle.cancel();
      return (await this.messages(id)).at(-1);
    }
    await idle.done;
    const messages = await this.messages(id);
    return [...messages].reverse().find((m) => m.info.role === 'assistant') ?? messages.at(-1);
  }

  /** Runs the person's command; answers with the assistant message that shows it (a `bash` tool part). */
  async shell(id: string, body: V1ShellDto) {
    const modelID = body.model ? (body.model.modelID ?? body.model.id) : undefined;
    if (body.model && !modelID) throw new InvalidRequestError('model.modelID is required', 'model.modelID');
    const model = body.model && modelID ? { providerID: body.model.providerID, id: modelID } : undefined;
    const message = await this.shells.run(id, {
      command: body.command,
      agent: body.agent,
      ...(model ? { model } : {}),
    });
    const info = await this.sessions.get(id);
    return v1ShellMessages(message, { sessionID: id, directory: info.location.directory }).assistant;
  }

  permissionList(directory?: string) {
    const requests = directory ? this.permissions.inLocation(directory) : this.permissions.list();
    return requests.map(v1Permission);
  }

  replyPermission(requestID: string, reply: PermissionReply, message?: string, sessionID?: string): true {
    this.permissions.reply(requestID, reply, {
      ...(sessionID ? { sessionID } : {}),
      ...(message ? { message } : {}),
    });
    return true;
  }

  /** Resolves at the session's next `session.idle`. */
  private idle(sessionID: string): { done: Promise<void>; cancel: () => void } {
    let listener: (event: OutpostEvent) => void = () => undefined;
    const done = new Promise<void>((resolve) => {
      listener = (event) => {
        if (event.type === 'session.idle' && (event.data as { sessionID: string }).sessionID === sessionID) {
          this.emitter.off(PUBLISHED_EVENT, listener);
          resolve();
        }
      };
      this.emitter.on(PUBLISHED_EVENT, listener);
    });
    return { done, cancel: () => this.emitter.off(PUBLISHED_EVENT, listener) };
  }
}

/** An attachment refused by the prompt (`files.N.uri`) named as the v1 part it came from (`parts.M.url`). */
function v1FileError(error: unknown, fileParts: Array<{ index: number }>): unknown {
  if (!(error instanceof InvalidRequestError)) return error;
  const field = /^files\.(\d+)\.uri$/.exec(String(error.fields.field ?? ''));
  const part = field ? fileParts[Number(field[1])] : undefined;
  if (!part) return error;
  const message = error.message.replace(/^files\[\d+\]/, `parts[${part.index}]`);
  return new InvalidRequestError(message, `parts.${part.index}.url`);
}

/** `provider/model` as v1's `{ providerID, modelID }`. */
function parseModel(value?: string): { providerID: string; modelID: string } | undefined {
  const slash = value?.indexOf('/') ?? -1;
  if (!value || slash <= 0 || slash === value.length - 1) return undefined;
  return { providerID: value.slice(0, slash), modelID: value.slice(slash + 1) };
}
