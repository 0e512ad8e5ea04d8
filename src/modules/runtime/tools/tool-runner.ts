import { Injectable } from '@nestjs/common';
import { EventLocation } from '@/common/events';
import { OutboundHttp } from '@/common/net/outbound-http';
import { decide } from '../permissions/evaluate';
import { PermissionRequestsService } from '../permissions/permission-requests.service';
import { PermissionRule, PermissionRuleset } from '../permissions/permission.types';
import { QuestionRequestsService } from '../questions/question-requests.service';
import { QuestionInfo } from '../questions/question.types';
import type { StepToolCall } from '../providers/step.types';
import { parseToolInput } from './tool-input';
import { QuestionRejectedError } from './question.tool';
import { ToolAbortedError, ToolError } from './tool.errors';
import { AnyTool, ToolContext, ToolResult } from './tool.types';

export interface ToolCallRequest {
  call: StepToolCall;
  /** The tools offered in this step. */
  tools: AnyTool[];
  directory: string;
  /** Agent rules, then the session's; the last match wins. */
  rulesets: PermissionRuleset[];
  sessionID: string;
  messageID: string;
  location?: EventLocation;
  signal: AbortSignal;
  /** Called when the call starts to wait for a person (e.g. to mark the tool part as waiting). */
  onAsk?: (requestID: string) => void;
  /** Awaited before a permission request is published (the agent loop announces its step first). */
  beforeAsk?: () => Promise<void>;
  /** The session's todo list, for `todoread`. */
  todos?: ToolContext['todos'];
  /** The subagent runner, for `task`. */
  subtask?: ToolContext['subtask'];
}

export interface ToolCallError {
  type: string;
  message: string;
}

/**
 * How a call ended. `error` goes back to the model as the tool's error result; `interrupted` closes the step.
 * `rules` are the allow rules that `always` replies added: append them to the session's `permissions`.
 */
export type ToolCallOutcome =
  | { status: 'completed'; input: unknown; result: ToolResult; rules: PermissionRule[] }
  | {
      status: 'error';
      input: unknown;
      error: ToolCallError;
      rules: PermissionRule[];
      /** The person rejected the call without a word: the turn ends here, as in opencode. */
      endsTurn?: boolean;
    }
  | { status: 'interrupted'; input: unknown; output: string; rules: PermissionRule[] };

/** Runs one tool call the model asked for: validate the input, check the rules (asking when told to), run it. */
@Injectable()
export class ToolRunner {
  constructor(
    private readonly permissions: PermissionRequestsService,
    private readonly outbound: OutboundHttp,
    private readonly questions: QuestionRequestsService,
  ) {}

  async run(request: ToolCallRequest): Promise<ToolCallOutcome> {
    const { call } = request;
    const rules: PermissionRule[] = [];
    const fail = (type: string, message: string, endsTurn?: boolean): ToolCallOutcome => ({
      status: 'error',
      input: call.input,
      error: { type, message },
      rules,
      ...(endsTurn ? { endsTurn } : {}),
    });
    if (call.invalid) return fail('InvalidToolInput', call.invalid);
    const tool = request.tools.find((t) => t.name === call.name);
    if (!tool) return fail('UnknownTool', `Unknown tool: ${call.name}`);

    let input: never;
    try {
      input = parseToolInput(tool, call.input);
    } catch (error) {
      return fail('InvalidToolInput', (error as Error).message);
    }
    const checks = tool.permissions(input, request.directory);
    const decision = decide(checks, ...request.rulesets);
    if (decision.effect === 'deny') {
      const { check } = decision.denied!;
      return fail('PermissionDenied', `Permission denied: ${check.action} ${check.resource} is not allowed`);
    }
    const refused = await this.askAll(request, tool, decision.asks, rules);
    if (refused) return refused;

    const allowExternal = checks.some((check) => check.action === 'external_directory');
    try {
      const result = await tool.run(input, {
        directory: request.directory,
        signal: request.signal,
        allowExternal,
        outbound: this.outbound,
        ask: (questions) => this.ask(request, questions),
        ...(request.todos ? { todos: request.todos } : {}),
        ...(request.subtask ? { subtask: request.subtask } : {}),
      });
      return { status: 'completed', input: call.input, result, rules };
    } catch (error) {
      if (error instanceof ToolAbortedError || request.signal.aborted) {
        return {
          status: 'interrupted',
          input: call.input,
          output: (error as ToolAbortedError).output ?? '',
          rules,
        };
      }
      if (error instanceof QuestionRejectedError) return fail(error.type, error.message, true);
      if (error instanceof ToolError) return fail(error.type, error.message);
      return fail('UnknownError', (error as Error).message ?? String(error));
    }
  }

  /** Puts the model's questions to the person and waits: the answers, or `QuestionRejectedError`. */
  private async ask(request: ToolCallRequest, questions: QuestionInfo[]) {
    await request.beforeAsk?.();
    const { request: asked, answer } = this.questions.ask({
      sessionID: request.sessionID,
      questions,
      tool: { messageID: request.messageID, callID: request.call.id },
      location: request.location,
      signal: request.signal,
    });
    request.onAsk?.(asked.id);
    const outcome = await answer;
    if (outcome.status === 'replied') return outcome.answers;
    if (!outcome.byPerson) throw new ToolAbortedError();
    throw new QuestionRejectedError('The user dismissed the question without answering');
  }

  /**
   * Asks the user each question the rules leave open (one an earlier `always` of this call already covers is
   * skipped), adding the rules each answer grants to `rules`: the outcome that ends the call (rejected,
   * interrupted), or undefined when every ask was allowed.
   */
  private async askAll(
    request: ToolCallRequest,
    tool: AnyTool,
    asks: Array<{ action: string; resources: string[] }>,
    rules: PermissionRule[],
  ): Promise<ToolCallOutcome | undefined> {
    const { call } = request;
    const interrupted: ToolCallOutcome = { status: 'interrupted', input: call.input, output: '', rules };
    for (const ask of asks) {
      const covered = ask.resources.map((resource) => ({ action: ask.action, resource }));
      if (decide(covered, rules).effect === 'allow') continue;
      await request.beforeAsk?.();
      if (request.signal.aborted) return interrupted;
      const { request: asked, answer } = this.permissions.ask({
        sessionID: request.sessionID,
        permission: ask.action,
        patterns: ask.resources,
        always: ask.action === 'bash' ? ask.resources.map(commandPattern) : ask.resources,
        metadata: { tool: tool.name, input: call.input },
        tool: { messageID: request.messageID, callID: call.id },
        location: request.location,
        signal: request.signal,
      });
      request.onAsk?.(asked.id);
      const settled = await answer;
      if (request.signal.aborted) return interrupted;
      if (settled.reply === 'reject') {
        const why = settled.reason ? `: ${settled.reason}` : '';
        const message = `The user rejected ${ask.action} on ${ask.resources.join(', ')}${why}`;
        const error = { type: 'PermissionRejected', message };
        // The person's "no" ends the turn; with a message it is feedback, and the model goes on with it.
        const endsTurn = settled.byPerson === true && settled.reason === undefined;
        return { status: 'error', input: call.input, error, rules, endsTurn };
      }
      rules.push(...settled.rules);
    }
    return undefined;
  }
}

/**
 * `always` on a command allows the program and its sub-command with any arguments (`git status -s` →
 * `git status *`), or the program alone when the second word is not a plain sub-command (`ls -la` → `ls *`).
 */
export function commandPattern(command: string): string {
  const [first, second] = command.trim().split(/\s+/);
  return second !== undefined && /^[a-z][\w-]*$/.test(second) ? `${first} ${second} *` : `${first} *`;
}
