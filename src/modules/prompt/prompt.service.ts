import { Injectable, OnModuleInit } from '@nestjs/common';
import { Clock } from '@/common/clock';
import { ConflictError, InvalidRequestError } from '@/common/errors';
import { EventsPublisher } from '@/common/events';
import { ascendingId } from '@/common/ids';
import { AgentsService } from '../agents/agents.service';
import { LocationsService } from '../locations/locations.service';
import { ProvidersService } from '../runtime/providers/providers.service';
import { SessionNotFoundError } from '../sessions/sessions.errors';
import { FileAttachment, Json } from '../sessions/session-message.types';
import { SessionsService } from '../sessions/sessions.service';
import { DrainsService } from './drains.service';
import { readFileAttachments } from './file-attachments';
import { FileAttachmentDto, PromptDto } from './dto/prompt.dto';
import { InboxRepository } from './inbox/inbox.repository';
import { AgentAttachment, InboxUser, UserPayload } from './inbox/inbox.types';
import { chooseModel } from './loop/model-choice';
import { sessionAgent } from './loop/session-agent';
import { SessionRevert } from './revert/session-revert';
import { Subagents } from './subagents/subagents';
import { SessionTitles } from './titles/session-titles';

const FOREIGN_KEY_VIOLATION = '23503';

/** `session.prompt`: checks the session and its model, writes the input to the inbox, wakes the drain. */
@Injectable()
export class PromptService implements OnModuleInit {
  constructor(
    private readonly sessions: SessionsService,
    private readonly locations: LocationsService,
    private readonly agents: AgentsService,
    private readonly providers: ProvidersService,
    private readonly inbox: InboxRepository,
    private readonly drains: DrainsService,
    private readonly titles: SessionTitles,
    private readonly reverts: SessionRevert,
    private readonly subagents: Subagents,
    private readonly events: EventsPublisher,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.subagents.register({
      prompt: (sessionID, text) => this.prompt(sessionID, { text }),
      interrupt: (sessionID) => this.drains.interrupt(sessionID),
    });
  }

  /**
   * The admitted item, with the members opencode's released SDK types the answer with (`admittedSeq`, the
   * admission order, and `prompt`, the payload again): a superset of the spec's `Session.Inbox.User`.
   */
  async prompt(
    sessionID: string,
    body: PromptDto,
  ): Promise<InboxUser & { admittedSeq: number; prompt: UserPayload }> {
    const payload = toPayload(body);
    const session = await this.sessions.get(sessionID);
    const location = await this.locations.resolve(session.location.directory);
    const agent = await sessionAgent(this.agents, location, session.agent);
    const model = chooseModel(
      await this.providers.forLocation(location),
      location.directory,
      session.model,
      agent.model,
    );
    if (payload.files) payload.files = await readFileAttachments(location.directory, payload.files);

    // A new prompt after an undo drops the reverted messages for good.
    if (session.revert) await this.reverts.commit(sessionID);

    const now = this.clock.now();
    const item: InboxUser = {
      id: body.id ?? ascendingId('msg', now),
      sessionID,
      timeCreated: now,
      type: 'user',
      payload,
      delivery: body.delivery ?? 'steer',
    };
    const admitted = await this.inbox.admit(item).catch((error: unknown) => {
      if ((error as { code?: string }).code === FOREIGN_KEY_VIOLATION)
        throw new SessionNotFoundError(sessionID);
      throw error;
    });
    if (admitted === undefined) {
      throw new ConflictError(
        `Prompt message ID conflicts with an existing durable record: ${item.id}`,
        item.id,
      );
    }
    this.events.publish('session.inbox.enqueued', { sessionID, item }, session.location);
    if (body.resume !== false) await this.drains.wake(sessionID);
    this.titles.maybeTitle(session, location, model, payload.text);
    return { ...item, admittedSeq: admitted, prompt: payload };
  }
}

/** The flat body, or the nested `prompt` of older clients (whose members win when both are sent). */
function toPayload(body: PromptDto): UserPayload {
  const text = body.prompt?.text ?? body.text;
  if (text === undefined) throw new InvalidRequestError('text is required', 'text');
  const payload: UserPayload = { text };
  const files = body.prompt?.files ?? body.files;
  const agents = body.prompt?.agents ?? body.agents;
  if (files?.length) payload.files = files.map(toAttachment);
  if (agents?.length) payload.agents = agents.map(toAgent);
  if (body.skills?.length) payload.skills = body.skills as Json[];
  if (body.metadata) payload.metadata = body.metadata as Record<string, Json>;
  return payload;
}

/** An attachment in the current shape; a 1.18.33 `{ uri }` (a `data:` URL inlined) is converted. */
function toAttachment(file: FileAttachmentDto, index: number): FileAttachment {
  let data = file.data;
  let mime = file.mime;
  let source: FileAttachment['source'] = { type: 'inline' };
  if (data === undefined) {
    if (file.uri === undefined)
      throw new InvalidRequestError(`files[${index}] needs data or uri`, `files.${index}.data`);
    const inline = /^data:([^;,]+)?(;base64)?,(.*)$/s.exec(file.uri);
    if (inline) {
      mime ??= inline[1];
      data = inline[2] ? inline[3] : Buffer.from(decodeURIComponent(inline[3])).toString('base64');
    } else {
      source = { type: 'uri', uri: file.uri };
      data = '';
    }
  } else if (file.source && file.source.type === 'uri' && typeof file.source.uri === 'string') {
    source = { type: 'uri', uri: file.source.uri };
  }
  const out: FileAttachment = { data, mime: mime ?? 'application/octet-stream', source };
  if (file.name !== undefined) out.name = file.name;
  if (file.description !== undefined) out.description = file.description;
  const mention = file.mention ?? (file.source && 'start' in file.source ? file.source : undefined);
  if (mention) out.mention = mention as FileAttachment['mention'];
  return out;
}

function toAgent(agent: { name: string; mention?: object; source?: object }): AgentAttachment {
  const mention = agent.mention ?? agent.source;
  return mention
    ? { name: agent.name, mention: mention as AgentAttachment['mention'] }
    : { name: agent.name };
}
