import type { Todo } from './todo.tools';

/** The todo list's event (`todowrite`), added to the event catalog. */
declare module '@/common/events/event-catalog' {
  interface EventCatalog {
    /** The session's todo list was written (`todowrite`). */
    'session.todo.updated': { sessionID: string; todos: Todo[] };
  }
}
