import { ToolError } from './tool.errors';
import { Tool } from './tool.types';
import { Todo, TODO_PRIORITIES, TODO_STATUSES } from './task-todo.types';

export type { Todo } from './task-todo.types';

export interface TodoWriteInput {
  todos: unknown[];
}

/**
 * `todowrite`: the model replaces the session's todo list (the list lives in the transcript: the input of the
 * last completed `todowrite` call is the list). The loop announces the new list (`todo.updated` for v1 clients).
 */
export const todoWriteTool: Tool<TodoWriteInput> = {
  name: 'todowrite',
  action: 'todowrite',
  description:
    'Write the todo list of this session (the whole list, replacing the previous one) to plan and track ' +
    'multi-step work. Each todo has an id, content, status (pending, in_progress, completed, cancelled) and ' +
    'priority (high, medium, low). Keep one todo in_progress at a time and mark todos completed as soon as done.',
  inputSchema: {
    type: 'object',
    properties: {
      todos: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            id: { type: 'string' },
            content: { type: 'string' },
            status: { type: 'string', enum: [...TODO_STATUSES] },
            priority: { type: 'string', enum: [...TODO_PRIORITIES] },
          },
          required: ['id', 'content', 'status', 'priority'],
        },
      },
    },
    required: ['todos'],
    additionalProperties: false,
  },
  permissions: () => [{ action: 'todowrite', resource: '*' }],
  async run(input) {
    const todos = input.todos.map(parseTodo);
    const open = todos.filter((todo) => todo.status !== 'completed' && todo.status !== 'cancelled').length;
    return {
      output: JSON.stringify(todos, null, 2),
      title: `${open} todo${open === 1 ? '' : 's'}`,
      metadata: { todos },
    };
  },
};

/** `todoread`: the session's todo list (given to the tool by the loop). */
export const todoReadTool: Tool<Record<string, never>> = {
  name: 'todoread',
  action: 'todoread',
  description: 'Read the todo list of this session.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  permissions: () => [{ action: 'todoread', resource: '*' }],
  async run(_input, ctx) {
    const todos = (await ctx.todos?.()) ?? [];
    const open = todos.filter((todo) => todo.status !== 'completed' && todo.status !== 'cancelled').length;
    return {
      output: JSON.stringify(todos, null, 2),
      title: `${open} todo${open === 1 ? '' : 's'}`,
      metadata: { todos },
    };
  },
};

function parseTodo(raw: unknown, index: number): Todo {
  const todo = (raw ?? {}) as Record<string, unknown>;
  const bad = (field: string, what: string) =>
    new ToolError(`todowrite: todos[${index}].${field} must be ${what}`);
  if (typeof todo.content !== 'string' || todo.content.trim() === '')
    throw bad('content', 'a non-empty string');
  if (!TODO_STATUSES.includes(todo.status as Todo['status'])) throw bad('status', TODO_STATUSES.join(', '));
  const priority = todo.priority ?? 'medium';
  if (!TODO_PRIORITIES.includes(priority as Todo['priority']))
    throw bad('priority', TODO_PRIORITIES.join(', '));
  const id = typeof todo.id === 'string' && todo.id ? todo.id : String(index + 1);
  return {
    id,
    content: todo.content,
    status: todo.status as Todo['status'],
    priority: priority as Todo['priority'],
  };
}

/** The session's todo list: the todos of the last completed `todowrite` call in the transcript. */
export function latestTodos(
  messages: Array<{ type: string; content?: Array<Record<string, unknown>> }>,
): Todo[] {
  for (let i = messages.length - 1; i >= 0; i--) {
    const content = messages[i].type === 'assistant' ? (messages[i].content ?? []) : [];
    for (let j = content.length - 1; j >= 0; j--) {
      const part = content[j] as {
        type?: string;
        name?: string;
        state?: { status?: string; metadata?: { todos?: Todo[] } };
      };
      if (part.type === 'tool' && part.name === 'todowrite' && part.state?.status === 'completed') {
        return part.state.metadata?.todos ?? [];
      }
    }
  }
  return [];
}
