import { Injectable, Logger } from '@nestjs/common';
import { AgentNotFoundError } from '../../agents/agents.errors';
import { AgentsService } from '../../agents/agents.service';
import { LocationConfigService } from '../../location-config/location-config.service';
import { ResolvedLocation } from '../../locations/location.types';
import { ModelStep } from '../../runtime/providers/model-step';
import { ModelRef, SessionInfo } from '../../sessions/session.types';
import { SessionsService } from '../../sessions/sessions.service';
import { ProvidersService } from '../../runtime/providers/providers.service';

/** The title every session starts with (see SessionsService): only such a session gets a generated title. */
const DEFAULT_TITLE = /^New session - \d{4}-\d{2}-\d{2}T/;
const MAX_TITLE = 100;
/** Of the first prompt, what the title call is shown. */
const MAX_PROMPT_CHARS = 4_000;

/**
 * Gives a session a title from its first prompt, with the hidden `title` agent: its model if it names one, else
 * the config's `small_model`, else the session's. Runs beside the prompt (never delaying or failing it), writes
 * the title once, through the session update (which announces `session.updated`), and only while the session
 * still has its default title.
 */
@Injectable()
export class SessionTitles {
  private readonly logger = new Logger(SessionTitles.name);
  /** Sessions whose title call is under way, so that prompts sent meanwhile start none. */
  private readonly pending = new Set<string>();

  constructor(
    private readonly sessions: SessionsService,
    private readonly agents: AgentsService,
    private readonly configs: LocationConfigService,
    private readonly providers: ProvidersService,
    private readonly modelStep: ModelStep,
  ) {}

  /** Starts the title call when the session (a root one) still has its default title. */
  maybeTitle(session: SessionInfo, location: ResolvedLocation, sessionModel: ModelRef, text: string): void {
    if (session.parentID || !DEFAULT_TITLE.test(session.title) || this.pending.has(session.id)) return;
    if (text.trim() === '') return;
    this.pending.add(session.id);
    void this.generate(session.id, location, sessionModel, text)
      .catch((error: unknown) =>
        this.logger.warn(`Title of session ${session.id} not generated: ${describe(error)}`),
      )
      .finally(() => this.pending.delete(session.id));
  }

  private async generate(
    sessionID: string,
    location: ResolvedLocation,
    sessionModel: ModelRef,
    text: string,
  ): Promise<void> {
    const agent = await this.agents.get(location, 'title').catch((error: unknown) => {
      if (error instanceof AgentNotFoundError) return undefined; // disabled: no titles
      throw error;
    });
    if (!agent) return;
    const registry = await this.providers.forLocation(location);
    const small = (await this.configs.get(location)).merged.smallModel;
    const ref =
      [agent.model, small].find((candidate) => candidate && registry.has(candidate)) ?? sessionModel;
    const model = registry.resolve(ref);
    const result = await this.modelStep.run(
      {
        model: model.language,
        system: agent.system,
        messages: [
          {
            role: 'user',
            content: [{ type: 'text', text: text.slice(0, MAX_PROMPT_CHARS) }],
          },
        ],
        headers: agent.request.headers,
        providerOptions: model.providerOptions,
        maxOutputTokens: 200,
        signal: AbortSignal.timeout(60_000),
      },
      { maxRetries: 1, baseDelayMs: 1_000, maxDelayMs: 5_000 },
    );
    if (result.status !== 'completed') {
      throw new Error(result.error?.message ?? `the title call ended ${result.status}`);
    }
    const title = cleanTitle(result.text);
    if (!title) throw new Error('the model answered no title');
    const current = await this.sessions.get(sessionID);
    if (!DEFAULT_TITLE.test(current.title)) return; // someone named it meanwhile
    await this.sessions.update(sessionID, { title });
  }
}

/** The first line of the answer with any reasoning block, quotes and closing punctuation removed. */
export function cleanTitle(answer: string): string {
  const line =
    answer
      .replace(/<think>[\s\S]*?<\/think>/g, '')
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l !== '') ?? '';
  const bare = line
    .replace(/^(title:\s*)/i, '')
    .replace(/^["'`*]+|["'`*]+$/g, '')
    .replace(/[.。]+$/, '')
    .trim();
  return bare.length > MAX_TITLE ? `${bare.slice(0, MAX_TITLE - 1)}…` : bare;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
