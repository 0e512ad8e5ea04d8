import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { Clock } from '../../../common/clock';
import { EventsPublisher, OutpostEvent, PUBLISHED_EVENT } from '../../../common/events';
import { ascendingId } from '../../../common/ids';
import { AgentsService } from '../../agents/agents.service';
import { ResolvedLocation } from '../../locations/location.types';
import { LocationsService } from '../../locations/locations.service';
import { isToolDisabled } from '../../runtime/permissions/evaluate';
import { PermissionRuleset } from '../../runtime/permissions/permission.types';
import { cost, microCentsToUsd } from '../../runtime/providers/cost';
import { toPromptMessages, TranscriptMessage } from '../../runtime/providers/history';
import { ModelStep } from '../../runtime/providers/model-step.service';
import { ProvidersService } from '../../runtime/providers/providers.service';
import { StepError, StepResult } from '../../runtime/providers/step.types';
import { BUILTIN_TOOLS, toolSpec } from '../../runtime/tools/builtin-tools';
import { ToolRunner } from '../../runtime/tools/tool-runner.service';
import { AssistantMessage, Json } from '../../sessions/session-message.types';
import { SessionInfo } from '../../sessions/session.types';
import { SessionsService } from '../../sessions/sessions.service';
import { promptConfig, PromptConfig } from '../prompt.config';
import { AssistantRecorder } from './assistant-recorder';
import { chooseModel } from './model-choice';
import { RunCache } from './run-cache';
import { sessionAgent } from './session-agent';

export type RunOutcome =
  { status: 'succeeded' } | { status: 'failed'; error: StepError } | { status: 'interrupted' };

/** What a run needs from its drain: the session, the interrupt signal, and the steer inputs at a boundary. */
export interface RunContext {
  sessionID: string;
  signal: AbortSignal;
  /** Takes the steering inputs (and moves) waiting at this step boundary; the count of prompts taken. */
  boundary(): Promise<number>;
}

type StepOutcome =
  | { status: 'completed'; toolCalls: number }
  | { status: 'failed'; error: StepError }
  | { status: 'interrupted' };

const INTERRUPTED: StepError = { type: 'AbortedError', message: 'Interrupted' };

/**
 * The agent loop of one run: step after step (a provider turn, then the tools it asked for), taking steering
 * input at each boundary, until the model stops asking for tools or the agent's `steps` limit is reached. Each
 * step takes the session, its agent and the location's providers as they are then, so switches, moves and
 * reloads apply from the next step; what did not change since the last step is kept in memory (`RunCache`).
 */
@Injectable()
export class AgentLoop implements OnModuleInit {
  /** The caches of the runs in progress, by session. */
  private readonly runs = new Map<string, RunCache>();

  constructor(
    private readonly emitter: EventEmitter2,
    private readonly sessions: SessionsService,
    private readonly locations: LocationsService,
    private readonly agents: AgentsService,
    private readonly providers: ProvidersService,
    private readonly modelStep: ModelStep,
    private readonly tools: ToolRunner,
    private readonly events: EventsPublisher,
    private readonly clock: Clock,
    @Inject(promptConfig.KEY) private readonly config: PromptConfig,
  ) {}

  onModuleInit(): void {
    this.emitter.on(PUBLISHED_EVENT, (event: OutpostEvent) => {
      if (event.type === 'session.updated') {
        this.runs.get((event.data as { sessionID: string }).sessionID)?.sessionUpdated();
      } else if (event.type === 'location.shutdown' && event.location) {
        for (const cache of this.runs.values()) cache.locationShutdown(event.location.directory);
      }
    });
  }

  async run(ctx: RunContext): Promise<RunOutcome> {
    const cache = new RunCache(ctx.sessionID);
    this.runs.set(ctx.sessionID, cache);
    try {
      for (let steps = 1; ; steps++) {
        if (ctx.signal.aborted) return { status: 'interrupted' };
        const { outcome, limit } = await this.step(ctx, cache);
        if (outcome.status !== 'completed') return outcome;
        if (ctx.signal.aborted) return { status: 'interrupted' };
        const steered = await ctx.boundary();
        if (steered > 0) {
          // The delivered prompts are in the transcript now: the next step reads it again.
          cache.history = undefined;
          steps = 0;
          continue;
        }
        if (outcome.toolCalls === 0 || steps >= limit) return { status: 'succeeded' };
      }
    } finally {
      if (this.runs.get(ctx.sessionID) === cache) this.runs.delete(ctx.sessionID);
    }
  }

  private async step(ctx: RunContext, cache: RunCache): Promise<{ outcome: StepOutcome; limit: number }> {
    const session = await cache.current(() => this.sessions.get(ctx.sessionID));
    const location = await cache.locate(session.location.directory, (directory) =>
      this.locations.resolve(directory),
    );
    const agent = await sessionAgent(this.agents, location, session.agent);
    const limit = agent.steps ?? this.config.maxSteps;
    const registry = await this.providers.forLocation(location);
    const ref = chooseModel(registry, location.directory, session.model, agent.model);
    const rulesets: PermissionRuleset[] = [agent.permissions, session.permissions ?? []];
    const tools = BUILTIN_TOOLS.filter((tool) => !isToolDisabled(tool.action, ...rulesets));
    cache.history ??= toPromptMessages((await this.sessions.messages(ctx.sessionID)) as TranscriptMessage[]);
    const history = cache.history;

    const now = this.clock.now();
    const message: AssistantMessage = {
      id: ascendingId('msg', now),
      type: 'assistant',
      agent: agent.id,
      model: ref,
      content: [],
      time: { created: now },
    };
    const eventLocation = { directory: location.directory };
    await this.sessions.appendMessage(ctx.sessionID, { ...message, id: message.id });
    this.events.publish('session.message.created', { sessionID: ctx.sessionID, message }, eventLocation);
    this.events.publish(
      'session.step.started',
      { sessionID: ctx.sessionID, messageID: message.id, agent: agent.id, model: ref },
      eventLocation,
    );
    const recorder = new AssistantRecorder(
      message,
      ctx.sessionID,
      eventLocation,
      this.sessions,
      this.events,
      this.clock,
    );

    let result: StepResult;
    let price;
    try {
      const model = registry.resolve(ref);
      price = model.config.cost;
      result = await this.modelStep.run(
        {
          model: model.language,
          system: agent.system,
          messages: history,
          tools: tools.map(toolSpec),
          headers: agent.request.headers,
          providerOptions: model.providerOptions,
          maxOutputTokens: model.config.limit?.output,
          signal: ctx.signal,
          onEvent: recorder.onEvent,
          onRetry: recorder.onRetry,
        },
        {
          maxRetries: this.config.providerRetries,
          baseDelayMs: this.config.providerRetryDelayMs,
          maxDelayMs: this.config.providerRetryMaxDelayMs,
        },
      );
    } catch (error) {
      // A provider that cannot be built (a missing `{env:NAME}`, a bad package): the step fails on the message.
      const failure = error as { tag?: string; message?: string };
      result = {
        status: 'failed',
        finish: 'error',
        text: '',
        reasoning: '',
        toolCalls: [],
        tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } },
        error: { type: failure.tag ?? 'UnknownError', message: failure.message ?? String(error) },
        attempts: 1,
      };
    }

    let outcome: StepOutcome =
      result.status === 'completed'
        ? { status: 'completed', toolCalls: result.toolCalls.length }
        : result.status === 'failed'
          ? { status: 'failed', error: result.error! }
          : { status: 'interrupted' };
    if (result.status === 'completed') {
      const interrupted = await this.runTools(ctx, session, location, rulesets, tools, recorder, result);
      if (interrupted) outcome = { status: 'interrupted' };
    }

    message.finish = result.finish;
    if (outcome.status === 'failed') message.error = outcome.error;
    if (outcome.status === 'interrupted') message.error = INTERRUPTED;
    const spent = cost(price, result.tokens);
    message.tokens = result.tokens;
    message.cost = microCentsToUsd(spent);
    message.time.completed = this.clock.now();
    recorder.close();
    await cache.write(() => this.sessions.completeStep(ctx.sessionID, message, result.tokens, spent));
    // The next step's history: this step's message as a read of the transcript would give it.
    if (cache.history === history) history.push(...toPromptMessages([message as TranscriptMessage]));
    this.events.publish('session.message.updated', { sessionID: ctx.sessionID, message }, eventLocation);
    this.events.publish(
      'session.step.ended',
      {
        sessionID: ctx.sessionID,
        messageID: message.id,
        finish: message.finish,
        cost: message.cost,
        tokens: result.tokens,
      },
      eventLocation,
    );
    return { outcome, limit };
  }

  /** Runs the step's tool calls in order; true when an interrupt stopped them. */
  private async runTools(
    ctx: RunContext,
    session: SessionInfo,
    location: ResolvedLocation,
    rulesets: PermissionRuleset[],
    tools: typeof BUILTIN_TOOLS,
    recorder: AssistantRecorder,
    result: StepResult,
  ): Promise<boolean> {
    const granted: PermissionRuleset = [];
    for (const call of result.toolCalls) {
      const part = recorder.call(call);
      const input = (call.input && typeof call.input === 'object' ? call.input : {}) as Record<string, Json>;
      if (ctx.signal.aborted) {
        recorder.setTool(
          part,
          { status: 'error', input, error: INTERRUPTED },
          { completed: this.clock.now() },
        );
        continue;
      }
      recorder.setTool(part, { status: 'running', input, metadata: {} }, { ran: this.clock.now() });
      const outcome = await this.tools.run({
        call,
        tools,
        directory: location.directory,
        rulesets: [...rulesets, granted],
        sessionID: ctx.sessionID,
        messageID: recorder.message.id,
        location: { directory: location.directory },
        signal: ctx.signal,
      });
      if (outcome.rules.length > 0) {
        granted.push(...outcome.rules);
        await this.sessions.addPermissions(session.id, outcome.rules);
      }
      const completed = { completed: this.clock.now() };
      if (outcome.status === 'completed') {
        const { output, title, metadata } = outcome.result;
        const meta = { ...(metadata ?? {}), ...(title ? { title } : {}) } as Record<string, Json>;
        recorder.setTool(
          part,
          { status: 'completed', input, content: [{ type: 'text', text: output }], metadata: meta },
          completed,
        );
      } else if (outcome.status === 'error') {
        recorder.setTool(part, { status: 'error', input, error: outcome.error }, completed);
      } else {
        const content = outcome.output ? [{ type: 'text' as const, text: outcome.output }] : undefined;
        recorder.setTool(
          part,
          { status: 'error', input, error: INTERRUPTED, ...(content ? { content } : {}) },
          completed,
        );
      }
    }
    return ctx.signal.aborted;
  }
}
