import { ToolError } from './tool.errors';
import { Tool } from './tool.types';
import type { TaskInput } from './task-todo.types';

export type { SubtaskResult, TaskInput } from './task-todo.types';

/**
 * `task`: hands a piece of work to a subagent, which runs in a child session of its own (visible to clients)
 * and answers with its last message. The loop provides the runner (`ctx.subtask`).
 */
export const taskTool: Tool<TaskInput> = {
  name: 'task',
  action: 'subagent',
  description:
    'Hand a self-contained task to a subagent, which works in a child session with its own tools and answers ' +
    'with a report. subagent_type: "general" (research and multi-step tasks) or "explore" (fast, read-only ' +
    'search of the codebase), or a custom subagent. Give a short description and a complete prompt: the ' +
    'subagent sees nothing of this conversation. Several tasks in one turn run one after the other.',
  inputSchema: {
    type: 'object',
    properties: {
      description: { type: 'string', description: 'The task in 3 to 5 words' },
      prompt: { type: 'string', description: 'Everything the subagent needs to do the task' },
      subagent_type: { type: 'string' },
    },
    required: ['description', 'prompt', 'subagent_type'],
    additionalProperties: false,
  },
  permissions: (input) => [{ action: 'subagent', resource: input.subagent_type }],
  async run(input, ctx) {
    if (!ctx.subtask) throw new ToolError('task: subagents are not available here');
    const result = await ctx.subtask(input);
    return {
      output: `task_id: ${result.sessionID}\n\n<task_result>\n${result.text}\n</task_result>`,
      title: input.description,
      metadata: { sessionId: result.sessionID, subagent: input.subagent_type },
    };
  },
};
