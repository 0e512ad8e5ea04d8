import type { OutboundHttp } from '@/common/net/outbound-http';
import type { QuestionAnswer, QuestionInfo } from '../questions/question.types';
import type { SubtaskResult, TaskInput, Todo } from './task-todo.types';

/** What a tool call needs from the loop: the location it works in and the signal that interrupts it. */
export interface ToolContext {
  directory: string;
  signal: AbortSignal;
  /** Set by the loop once `external_directory` was allowed for this call; tools refuse outside paths otherwise. */
  allowExternal?: boolean;
  /** The session's todo list (`todoread`), read from its transcript. */
  todos?: () => Promise<Todo[]>;
  /** Runs a subagent in a child session (`task`). */
  subtask?: (input: TaskInput) => Promise<SubtaskResult>;
  /** The server's guarded HTTP client, for addresses the model names (`webfetch`, which refuses to run without it). */
  outbound?: OutboundHttp;
  /** Asks the person (`question`): the answers, one list per question; throws `QuestionRejectedError`. */
  ask?: (questions: QuestionInfo[]) => Promise<QuestionAnswer[]>;
}

/** One permission question a call raises: `edit` on `src/a.ts`, `external_directory` on `/etc/*`, ... */
export interface PermissionCheck {
  action: string;
  resource: string;
}

/** What the model sees (`output`) and what clients may show (`title`, `metadata`). */
export interface ToolResult {
  output: string;
  title?: string;
  metadata?: Record<string, unknown>;
}

export interface Tool<Input = Record<string, unknown>> {
  name: string;
  /** The permission action the tool's calls are checked as (`write` and `edit` are both `edit`). */
  action: string;
  description: string;
  /** JSON schema of the input, as offered to the model. */
  inputSchema: Record<string, unknown>;
  /** The schema is another program's (an MCP server's), which validates the input itself: only an object is required here. */
  foreignSchema?: boolean;
  /** The permission checks of this call, evaluated by the loop before `run`. `input` is already validated. */
  permissions(input: Input, directory: string): PermissionCheck[];
  run(input: Input, ctx: ToolContext): Promise<ToolResult>;
}

/** Any tool, whatever its input: call it as `tool.run(parseToolInput(tool, raw), ctx)`. */
export type AnyTool = Tool<never>;
