import { Injectable } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { OutpostEvent, PUBLISHED_EVENT } from '@/common/events';
import { AgentNotFoundError } from '../../agents/agents.errors';
import { AgentsService } from '../../agents/agents.service';
import { ResolvedLocation } from '../../locations/location.types';
import { SubtaskResult, TaskInput } from '../../runtime/tools/task.tool';
import { ToolError } from '../../runtime/tools/tool.errors';
import { SessionsService } from '../../sessions/sessions.service';

/** How a child session's run is started and stopped (the prompt service registers it). */
export interface SessionStarter {
  prompt(sessionID: string, text: string): Promise<unknown>;
  interrupt(sessionID: string): Promise<void>;
}

/**
 * Runs the `task` tool's subagent: a child session of the calling one (its agent the subagent, its model the
 * parent's), prompted like any session so its run goes through a drain of its own and clients can follow it;
 * answers with the subagent's last text once the child is idle. An interrupt of the parent interrupts the child.
 */
@Injectable()
export class Subagents {
  constructor(
    private readonly sessions: SessionsService,
    private readonly agents: AgentsService,
    private readonly emitter: EventEmitter2,
  ) {}

  /** The prompt service is built on the agent loop that runs this tool, so it registers itself here. */
  private starter?: SessionStarter;

  register(starter: SessionStarter): void {
    this.starter = starter;
  }

  async run(
    parentID: string,
    location: ResolvedLocation,
    input: TaskInput,
    signal: AbortSignal,
  ): Promise<SubtaskResult> {
    const agent = await this.agents.get(location, input.subagent_type).catch(async (error: unknown) => {
      if (!(error instanceof AgentNotFoundError)) throw error;
      return undefined;
    });
    if (!agent || agent.mode === 'primary' || agent.hidden) {
      const names = (await this.agents.list(location))
        .filter((a) => a.mode !== 'primary' && !a.hidden)
        .map((a) => a.id);
      throw new ToolError(`task: no subagent "${input.subagent_type}"; available: ${names.join(', ')}`);
    }
    const parent = await this.sessions.get(parentID);
    const child = await this.sessions.create({
      parentID,
      agent: agent.id,
      model: parent.model ?? null,
      title: `${input.description} (@${agent.id} subagent)`,
    });
    const starter = this.starter;
    if (!starter) throw new ToolError('task: subagents are not available here');
    const idle = this.idle(child.id);
    const onAbort = () => void starter.interrupt(child.id);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      await starter.prompt(child.id, input.prompt);
      await idle.done;
    } finally {
      idle.cancel();
      signal.removeEventListener('abort', onAbort);
    }
    const messages = await this.sessions.messages(child.id);
    const last = [...messages].reverse().find((m) => m.type === 'assistant');
    const text =
      last?.type === 'assistant'
        ? last.content
            .filter((part) => part.type === 'text')
            .map((part) => (part as { text: string }).text)
            .join('\n')
            .trim()
        : '';
    return { sessionID: child.id, text: text || '(the subagent gave no answer)' };
  }

  private idle(sessionID: string): { done: Promise<void>; cancel: () => void } {
    let listener: (event: OutpostEvent) => void = () => undefined;
    const done = new Promise<void>((resolve) => {
      listener = (event) => {
        if (event.type === 'session.idle' && (event.data as { sessionID: string }).sessionID === sessionID) {
          resolve();
        }
      };
      this.emitter.on(PUBLISHED_EVENT, listener);
    });
    return { done, cancel: () => this.emitter.off(PUBLISHED_EVENT, listener) };
  }
}
