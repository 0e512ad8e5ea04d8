/** The data the task and todo tools exchange with the loop (apart from the tools, so tool.types needs no tool). */

export const TODO_STATUSES = ['pending', 'in_progress', 'completed', 'cancelled'] as const;
export const TODO_PRIORITIES = ['high', 'medium', 'low'] as const;

/** One entry of a session's todo list, as opencode's clients draw it. */
export interface Todo {
  id: string;
  content: string;
  status: (typeof TODO_STATUSES)[number];
  priority: (typeof TODO_PRIORITIES)[number];
}

export interface TaskInput {
  description: string;
  prompt: string;
  subagent_type: string;
}

/** What a subtask answered: its child session and the subagent's last text. */
export interface SubtaskResult {
  sessionID: string;
  text: string;
}
