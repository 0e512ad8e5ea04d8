import { Injectable } from '@nestjs/common';
import { Clock } from '@/common/clock';
import { ConflictError, InvalidRequestError } from '@/common/errors';
import { EventsPublisher } from '@/common/events';
import { ascendingId } from '@/common/ids';
import { AgentNotFoundError } from '../../agents/agents.errors';
import { AgentsService } from '../../agents/agents.service';
import { LocationsService } from '../../locations/locations.service';
import { lastCompaction, toPromptMessages, TranscriptMessage } from '../../runtime/providers/history';
import { ModelStep } from '../../runtime/providers/model-step';
import { acceptedFiles } from '../../runtime/providers/provider-config';
import { ProvidersService } from '../../runtime/providers/providers.service';
import {
  CompactionMessage,
  SessionMessageInfo,
  SyntheticMessage,
} from '../../sessions/session-message.types';
import { ModelRef } from '../../sessions/session.types';
import { SessionsActivity } from '../../sessions/sessions-activity';
import { SessionsService } from '../../sessions/sessions.service';
import { chooseModel } from '../loop/model-choice';
import { sessionAgent } from '../loop/session-agent';
import { SessionRevert } from '../revert/session-revert';
import { CompactionFailedError } from './compaction.errors';
import { pruneToolOutputs } from './prune';

/** What a run that compacted between its steps goes on with (the history must not end with the summary). */
const CONTINUE =
  "The conversation above was summarised to fit the model's context. Continue with the task from where it " +
  "stopped; the user's last message was:";

/** The last user turn of the compaction request: what the summary must hold. */
const SUMMARY_REQUEST =
  'Provide a detailed summary of our conversation above, to continue the work from it alone: the goal, what ' +
  'was done and decided, the files involved and their state, what is being done now, and what comes next.';

export interface CompactOptions {
  reason: 'auto' | 'manual';
  /** The model that writes the summary; the compaction agent's, else the session's. */
  model?: ModelRef;
  signal?: AbortSignal;
  /** A run compacting between its own steps: the session is busy with it, which is fine. */
  inRun?: boolean;
}

/**
 * Compaction: old tool outputs are pruned first, then the hidden `compaction` agent summarises the transcript
 * (from the last summary on). The summary is stored as a `compaction` message; the turns before it stay in the
 * transcript, but the model gets the summary instead of them from then on (see `toPromptMessages`).
 */
@Injectable()
export class SessionCompaction {
  constructor(
    private readonly sessions: SessionsService,
    private readonly activity: SessionsActivity,
    private readonly locations: LocationsService,
    private readonly agents: AgentsService,
    private readonly providers: ProvidersService,
    private readonly modelStep: ModelStep,
    private readonly events: EventsPublisher,
    private readonly clock: Clock,
    private readonly reverts: SessionRevert,
  ) {}

  async compact(sessionID: string, options: CompactOptions): Promise<CompactionMessage> {
    let session = await this.sessions.get(sessionID);
    if (!options.inRun && this.activity.active()[sessionID]) {
      throw new ConflictError(`Session ${sessionID} is running; compact it once it is idle`, sessionID);
    }
    // As in opencode, an undone turn is dropped for good before the summary, so the summary never holds it.
    if (session.revert) {
      await this.reverts.commit(sessionID);
      session = await this.sessions.get(sessionID);
    }
    const location = await this.locations.resolve(session.location.directory);
    const registry = await this.providers.forLocation(location);
    const agent = await this.agents.get(location, 'compaction').catch((error: unknown) => {
      if (error instanceof AgentNotFoundError) return undefined;
      throw error;
    });
    const primary = await sessionAgent(this.agents, location, session.agent);
    const ref = chooseModel(
      registry,
      location.directory,
      options.model ?? (agent?.model && registry.has(agent.model) ? agent.model : session.model),
      primary.model,
    );

    const transcript = await this.sessions.messages(sessionID);
    const since = lastCompaction(transcript as TranscriptMessage[]);
    if (!transcript.slice(since + 1).some((m) => m.type === 'user' || m.type === 'assistant')) {
      throw new InvalidRequestError('The session has nothing new to compact', 'sessionID', 'Params');
    }
    for (const message of pruneToolOutputs(transcript, this.clock.now())) {
      await this.sessions.rewriteMessage(sessionID, message);
    }
    const model = registry.resolve(ref);
    const history = toPromptMessages(transcript as TranscriptMessage[], {
      accepts: acceptedFiles(registry.configs()[ref.providerID], model.config, ref.id),
    });

    const created = this.clock.now();
    const message: CompactionMessage = {
      id: ascendingId('msg', created),
      answerID: ascendingId('msg', created),
      type: 'compaction',
      status: 'running',
      reason: options.reason,
      model: ref,
      time: { created },
    };
    await this.sessions.appendMessage(sessionID, message);
    this.events.publish('session.message.created', { sessionID, message }, session.location);

    const result = await this.modelStep.run({
      model: model.language,
      system: agent?.system,
      messages: [...history, { role: 'user', content: [{ type: 'text', text: SUMMARY_REQUEST }] }],
      headers: agent?.request.headers,
      providerOptions: model.providerOptions,
      maxOutputTokens: model.config.limit?.output,
      signal: options.signal,
    });
    const summary = result.text.trim();
    message.time.completed = this.clock.now();
    if (result.status === 'completed' && summary) {
      message.status = 'completed';
      message.summary = summary;
    } else {
      message.status = 'failed';
      message.error = result.error?.message ?? `the summary call ended ${result.status}`;
    }
    await this.sessions.updateMessage(sessionID, message);
    this.events.publish('session.message.updated', { sessionID, message }, session.location);
    if (message.status === 'failed') throw new CompactionFailedError(sessionID, message.error!);
    this.events.publish(
      'session.compacted',
      { sessionID, messageID: message.id, reason: options.reason },
      session.location,
    );
    if (options.inRun) await this.continuation(sessionID, transcript, session.location);
    return message;
  }

  /** A run compacted mid-way: a synthetic turn repeats the user's last message, so the model goes on with it. */
  private async continuation(
    sessionID: string,
    transcript: SessionMessageInfo[],
    location: { directory: string },
  ): Promise<void> {
    const last = [...transcript].reverse().find((m) => m.type === 'user');
    if (last?.type !== 'user') return;
    const created = this.clock.now();
    const message: SyntheticMessage = {
      id: ascendingId('msg', created),
      type: 'synthetic',
      text: `${CONTINUE}\n\n${last.text}`,
      description: 'compaction',
      time: { created },
    };
    await this.sessions.appendMessage(sessionID, message);
    this.events.publish('session.message.created', { sessionID, message }, location);
  }
}
