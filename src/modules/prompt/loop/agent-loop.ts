import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { Clock } from '@/common/clock';
import { EventsPublisher, OutpostEvent, PUBLISHED_EVENT } from '@/common/events';
import { ascendingId } from '@/common/ids';
import { AgentInfo } from '../../agents/agent.types';
import { AgentsService } from '../../agents/agents.service';
import { ResolvedLocation } from '../../locations/location.types';
import { LocationsService } from '../../locations/locations.service';
import { McpService } from '../../mcp/mcp.service';
import { isToolDisabled } from '../../runtime/permissions/evaluate';
import { PermissionRuleset } from '../../runtime/permissions/permission.types';
import { microCentsToDollars } from '@/common/money';
import { cost } from '../../runtime/providers/cost';
import { providerFamily } from '../../runtime/providers/model-family';
import { acceptedFiles } from '../../runtime/providers/provider-config';
import { PromptMessage, toPromptMessages, TranscriptMessage } from '../../runtime/providers/history';
import { CONTEXT_OVERFLOW_ERROR, ModelStep } from '../../runtime/providers/model-step';
import { ProviderRegistry } from '../../runtime/providers/provider-registry';
import { ProvidersService } from '../../runtime/providers/providers.service';
import { StepError, StepResult } from '../../runtime/providers/step.types';
import { SkillsService } from '../../runtime/skills/skills.service';
import { BUILTIN_TOOLS, toolSpec } from '../../runtime/tools/builtin-tools';
import { AnyTool } from '../../runtime/tools/tool.types';
import { WebSearchTools } from '../../runtime/tools/web-search-tools';
import { AssistantMessage } from '../../sessions/session-message.types';
import { ModelRef, SessionInfo } from '../../sessions/session.types';
import { SessionsService } from '../../sessions/sessions.service';
import { SessionCompaction } from '../compaction/session-compaction';
import { promptConfig, PromptConfig } from '../prompt.config';
import { SystemPromptService } from '../system/system-prompt.service';
import { AssistantRecorder } from './assistant-recorder';
import { chooseModel } from './model-choice';
import { RunCache } from './run-cache';
import { overflows } from './overflow';
import { sessionAgent } from './session-agent';
import { INTERRUPTED, StepTools } from './step-tools';
import type { RunContext } from './run-context';

export type { RunContext } from './run-context';

export type RunOutcome =
  { status: 'succeeded' } | { status: 'failed'; error: StepError } | { status: 'interrupted' };

type StepOutcome =
  | { status: 'completed'; toolCalls: number }
  | { status: 'failed'; error: StepError }
  | { status: 'interrupted' };

/** What a step runs with, taken at its start from the session, its agent and the location's providers. */
interface StepSetup {
  session: SessionInfo;
  location: ResolvedLocation;
  agent: AgentInfo;
  /** The agent's `steps` limit. */
  limit: number;
  registry: ProviderRegistry;
  ref: ModelRef;
  rulesets: PermissionRuleset[];
  tools: AnyTool[];
  /** The history the step sends, in the provider's shape. */
  history: PromptMessage[];
  /** The system prompt: base prompt, environment, instruction files, the agent's own prompt. */
  system: string;
}

/** A step with its assistant message and the recorder that grows it. */
interface OpenStep {
  setup: StepSetup;
  recorder: AssistantRecorder;
  /** Resolves once the message is in the transcript and announced (at once, unless the previous close opened it). */
  stored: Promise<void>;
}

/**
 * The agent loop of one run: step after step (a provider turn, then the tools it asked for), taking steering
 * input at each boundary, until the model stops asking for tools or the agent's `steps` limit is reached. Each
 * step takes the session, its agent and the location's providers as they are then, so switches, moves and
 * reloads apply from the next step; what did not change since the last step is kept in memory (`RunCache`).
 * When no input waits at a boundary, closing one step and opening the next are one statement.
 */
@Injectable()
export class AgentLoop implements OnModuleInit {
  private readonly logger = new Logger(AgentLoop.name);
  /** The caches of the runs in progress, by session. */
  private readonly runs = new Map<string, RunCache>();

  constructor(
    private readonly emitter: EventEmitter2,
    private readonly sessions: SessionsService,
    private readonly locations: LocationsService,
    private readonly agents: AgentsService,
    private readonly providers: ProvidersService,
    private readonly mcp: McpService,
    private readonly skills: SkillsService,
    private readonly webSearch: WebSearchTools,
    private readonly modelStep: ModelStep,
    private readonly systemPrompt: SystemPromptService,
    private readonly compaction: SessionCompaction,
    private readonly stepTools: StepTools,
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
      // A step opened by the close of the previous one (its message is on its way to the transcript: it runs
      // even when interrupted meanwhile, and then closes as interrupted at once).
      let opened: OpenStep | undefined;
      for (let steps = 1; ; steps++) {
        if (!opened && (ctx.signal.aborted || !(await ctx.owned()))) return { status: 'interrupted' };
        const step = opened ?? (await this.open(ctx, await this.prepare(ctx, cache)));
        const { outcome, result, spent } = await this.execute(ctx, step);
        // The history goes on with this step's message, as a read of the transcript would give it.
        if (cache.history === step.setup.history) cache.history.push(...stepMessages(step));
        const overflow =
          outcome.status === 'completed' &&
          overflows(step.setup.registry.model(step.setup.ref).limit, result.tokens);
        const more =
          !overflow &&
          outcome.status === 'completed' &&
          outcome.toolCalls > 0 &&
          steps < step.setup.limit &&
          !ctx.signal.aborted &&
          !ctx.waiting() &&
          cache.history === step.setup.history;
        // The next step's setup; when it cannot be made (a model no longer configured), the next step fails
        // the way a step opened on its own would.
        const next = more ? await this.prepare(ctx, cache).catch(() => undefined) : undefined;
        opened = await this.close(ctx, cache, step, result, spent, next);
        if (
          outcome.status === 'failed' &&
          outcome.error.type === CONTEXT_OVERFLOW_ERROR &&
          !cache.overflowRetried
        ) {
          // The prompt no longer fits: compact, then try the step once more with the summary.
          cache.overflowRetried = true;
          if (await this.compactInRun(ctx)) {
            cache.history = undefined;
            continue;
          }
        }
        if (outcome.status !== 'completed') return outcome;
        if (opened) continue;
        if (ctx.signal.aborted) return { status: 'interrupted' };
        if (overflow) {
          // The context is full: the next step (or the next prompt) gets a summary of the turns so far.
          await this.compactInRun(ctx);
          cache.history = undefined;
        }
        const steered = await ctx.boundary();
        if (steered > 0) {
          // The delivered prompts are in the transcript now: the next step reads it again.
          cache.history = undefined;
          steps = 0;
          continue;
        }
        if (outcome.toolCalls === 0 || steps >= step.setup.limit) return { status: 'succeeded' };
      }
    } finally {
      if (this.runs.get(ctx.sessionID) === cache) this.runs.delete(ctx.sessionID);
    }
  }

  /** Automatic compaction between two steps of a run; false (logged) when it failed. */
  private async compactInRun(ctx: RunContext): Promise<boolean> {
    return this.compaction
      .compact(ctx.sessionID, { reason: 'auto', signal: ctx.signal, inRun: true })
      .then(() => true)
      .catch((error: unknown) => {
        this.logger.warn(`Automatic compaction failed: ${String(error)}`);
        return false;
      });
  }

  /** The setup of a step from the session, its location, agent and providers (cached where nothing changed). */
  private async prepare(ctx: RunContext, cache: RunCache): Promise<StepSetup> {
    const session = await cache.current(() => this.sessions.get(ctx.sessionID));
    const location = await cache.locate(session.location.directory, (directory) =>
      this.locations.resolve(directory),
    );
    const agent = await sessionAgent(this.agents, location, session.agent);
    const registry = await this.providers.forLocation(location);
    const ref = chooseModel(registry, location.directory, session.model, agent.model);
    const rulesets: PermissionRuleset[] = [agent.permissions, session.permissions ?? []];
    // The MCP servers' tools, the location's web search and the skills the rules allow, beside the built-in ones
    // (a server that failed has none).
    const extra = [
      ...(await this.webSearch.forLocation(location)),
      ...(await this.mcp.tools(location)),
      ...(await this.skills.tools(location, rulesets)),
    ];
    const tools = [...BUILTIN_TOOLS, ...extra].filter((tool) => !isToolDisabled(tool.action, ...rulesets));
    const accepts = acceptedFiles(registry.configs()[ref.providerID], registry.model(ref), ref.id);
    // A model that takes other attachments than the last step's sees the transcript written anew.
    const history =
      cache.historyFor(accepts) ??
      (cache.history = toPromptMessages(
        (await this.sessions.messages(ctx.sessionID)) as TranscriptMessage[],
        { accepts },
      ));
    const limit = agent.steps ?? this.config.maxSteps;
    const family = providerFamily(registry.configs()[ref.providerID]?.package, ref.id);
    const system = await cache.system(`${location.directory}\n${family}\n${agent.system ?? ''}`, () =>
      this.systemPrompt.build(location, agent, family),
    );
    return { session, location, agent, limit, registry, ref, rulesets, tools, history, system };
  }

  /** Appends the step's assistant message to the transcript and announces it. */
  private async open(ctx: RunContext, setup: StepSetup): Promise<OpenStep> {
    const message = this.newMessage(setup);
    await this.sessions.appendMessage(ctx.sessionID, { ...message });
    this.announce(ctx, setup, message);
    const recorder = this.recorder(ctx, setup, message);
    return { setup, recorder, stored: Promise.resolve() };
  }

  private newMessage(setup: StepSetup): AssistantMessage {
    const now = this.clock.now();
    return {
      id: ascendingId('msg', now),
      type: 'assistant',
      agent: setup.agent.id,
      model: setup.ref,
      content: [],
      time: { created: now },
    };
  }

  private recorder(
    ctx: RunContext,
    setup: StepSetup,
    message: AssistantMessage,
    stored?: Promise<unknown>,
  ): AssistantRecorder {
    const at = { directory: setup.location.directory };
    return new AssistantRecorder(message, ctx.sessionID, at, this.sessions, this.events, this.clock, stored);
  }

  private announce(ctx: RunContext, setup: StepSetup, message: AssistantMessage): void {
    const at = { directory: setup.location.directory };
    this.events.publish('session.message.created', { sessionID: ctx.sessionID, message }, at);
    this.events.publish(
      'session.step.started',
      { sessionID: ctx.sessionID, messageID: message.id, agent: setup.agent.id, model: setup.ref },
      at,
    );
  }

  /** The provider turn and the tools it asked for; the message holds the step's end (not yet written). */
  private async execute(
    ctx: RunContext,
    { setup, recorder, stored }: OpenStep,
  ): Promise<{ outcome: StepOutcome; result: StepResult; spent: number }> {
    const { agent, registry, ref, tools } = setup;
    let result: StepResult;
    let price;
    try {
      const model = registry.resolve(ref);
      price = model.config.cost;
      result = await this.modelStep.run(
        {
          model: model.language,
          system: setup.system,
          messages: setup.history,
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
      const stopped = await this.stepTools.run(ctx, setup, recorder, result, stored);
      if (stopped === 'interrupted') outcome = { status: 'interrupted' };
      // A rejection without a word ends the turn: no further step asks the model again.
      if (stopped === 'rejected') outcome = { status: 'completed', toolCalls: 0 };
    }

    const message = recorder.message;
    message.finish = result.finish;
    if (outcome.status === 'failed') message.error = outcome.error;
    if (outcome.status === 'interrupted') message.error = INTERRUPTED;
    const spent = cost(price, result.tokens);
    message.tokens = result.tokens;
    message.cost = microCentsToDollars(spent);
    message.time.completed = this.clock.now();
    return { outcome, result, spent };
  }

  /**
   * Writes the step's end (message, usage added to the session) and announces it. With `next`, the next
   * step's message is appended by the same statement and that step is returned at once: its provider turn
   * starts while the statement runs, and its events and writes wait until the statement has stored it.
   */
  private async close(
    ctx: RunContext,
    cache: RunCache,
    step: OpenStep,
    result: StepResult,
    spent: number,
    next?: StepSetup,
  ): Promise<OpenStep | undefined> {
    const { recorder, setup } = step;
    const message = recorder.message;
    recorder.close();
    await step.stored;
    if (!(await ctx.owned())) return undefined;
    const following = next ? this.newMessage(next) : undefined;
    // With a next step, the statement goes out once this turn of the event loop has sent that step's request:
    // the database's work then overlaps the provider's instead of delaying the request.
    const write = () =>
      cache.write(() =>
        this.sessions.completeStep(
          ctx.sessionID,
          message,
          result.tokens,
          spent,
          following && { ...following },
        ),
      );
    const ended = (next ? nextTurn().then(write) : write()).then((info) => {
      const at = { directory: setup.location.directory };
      this.events.publish('session.message.updated', { sessionID: ctx.sessionID, message }, at);
      this.events.publish(
        'session.step.ended',
        {
          sessionID: ctx.sessionID,
          messageID: message.id,
          finish: result.finish,
          cost: microCentsToDollars(spent),
          tokens: result.tokens,
        },
        at,
      );
      return info;
    });
    if (!next || !following) {
      await ended;
      return undefined;
    }
    // Awaited by the next step's close; a failure (the session gone) leaves its events unsent.
    const stored = ended.then((info) => {
      if (!info) return;
      this.announce(ctx, next, following);
      opened.recorder.release();
    });
    stored.catch(() => {});
    const opened: OpenStep = { setup: next, recorder: this.recorder(ctx, next, following, stored), stored };
    return opened;
  }
}

/** A closed step's message as the next steps send it. */
function stepMessages(step: OpenStep): PromptMessage[] {
  return toPromptMessages([step.recorder.message as TranscriptMessage]);
}

/** Resolves in the check phase of this turn of the event loop, after what this turn writes to sockets. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
