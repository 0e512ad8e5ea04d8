import { Injectable } from '@nestjs/common';
import { Clock } from '@/common/clock';
import { EventsPublisher } from '@/common/events';
import { ResolvedLocation } from '../../locations/location.types';
import { PermissionRuleset } from '../../runtime/permissions/permission.types';
import { StepError, StepResult } from '../../runtime/providers/step.types';
import { latestTodos, Todo, todoWriteTool } from '../../runtime/tools/todo.tools';
import { ToolRunner } from '../../runtime/tools/tool-runner';
import { AnyTool } from '../../runtime/tools/tool.types';
import { Json } from '../../sessions/session-message.types';
import { SessionInfo } from '../../sessions/session.types';
import { SessionsService } from '../../sessions/sessions.service';
import { Snapshots } from '../snapshots/snapshots';
import { StepSnapshot } from '../snapshots/step-snapshot';
import { Subagents } from '../subagents/subagents';
import type { RunContext } from './run-context';
import { AssistantRecorder } from './assistant-recorder';

export const INTERRUPTED: StepError = { type: 'AbortedError', message: 'Interrupted' };
/** A call after one the person rejected, in the same step: not run, as the turn ends there. */
const NOT_RUN: StepError = {
  type: 'PermissionRejected',
  message: 'Not run: the user rejected an earlier call',
};

/** What the tools of a step run with, from the step's setup. */
export interface ToolsSetup {
  session: SessionInfo;
  location: ResolvedLocation;
  rulesets: PermissionRuleset[];
  tools: AnyTool[];
}

/**
 * The tool calls of one step, in order, under the step's permission rules (an `always` answer is added to the
 * session), with snapshots of the location around the ones that may change files (for undo).
 */
@Injectable()
export class StepTools {
  constructor(
    private readonly tools: ToolRunner,
    private readonly sessions: SessionsService,
    private readonly snapshots: Snapshots,
    private readonly clock: Clock,
    private readonly events: EventsPublisher,
    private readonly subagents: Subagents,
  ) {}

  /**
   * Runs the step's tool calls in order: `interrupted` when an interrupt stopped them, `rejected` when the person
   * rejected one without a word (the calls after it are not run and the turn ends), else undefined. A permission request waits until
   * the step has been announced (`stored`), so that it follows the step's start on the event stream.
   */
  async run(
    ctx: RunContext,
    { session, location, rulesets, tools }: ToolsSetup,
    recorder: AssistantRecorder,
    result: StepResult,
    stored: Promise<void>,
  ): Promise<'interrupted' | 'rejected' | undefined> {
    const granted: PermissionRuleset = [];
    let rejected = false;
    const snapshot = new StepSnapshot(this.snapshots, location.directory, recorder.message);
    for (const call of result.toolCalls) {
      const part = recorder.call(call);
      const input = (call.input && typeof call.input === 'object' ? call.input : {}) as Record<string, Json>;
      if (rejected || ctx.signal.aborted || !(await ctx.owned())) {
        recorder.setTool(
          part,
          { status: 'error', input, error: rejected ? NOT_RUN : INTERRUPTED },
          { completed: this.clock.now() },
        );
        continue;
      }
      await snapshot.before(call.name);
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
        beforeAsk: () => stored,
        // The step's own message last: a todowrite earlier in this step wins over what is stored.
        subtask: (task) => this.subagents.run(ctx.sessionID, location, task, ctx.signal),
        todos: async () => latestTodos([...(await this.sessions.messages(ctx.sessionID)), recorder.message]),
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
        if (call.name === todoWriteTool.name) {
          const todos = (metadata as { todos: Todo[] }).todos;
          this.events.publish('session.todo.updated', { sessionID: ctx.sessionID, todos }, location);
        }
      } else if (outcome.status === 'error') {
        recorder.setTool(part, { status: 'error', input, error: outcome.error }, completed);
        rejected = outcome.endsTurn === true;
      } else {
        const content = outcome.output ? [{ type: 'text' as const, text: outcome.output }] : undefined;
        recorder.setTool(
          part,
          { status: 'error', input, error: INTERRUPTED, ...(content ? { content } : {}) },
          completed,
        );
      }
    }
    await snapshot.after();
    return ctx.signal.aborted ? 'interrupted' : rejected ? 'rejected' : undefined;
  }
}
