/** A project's name, icon or start-up command changed (`project.update`): the project as v1 shows it. */
declare module '@/common/events/event-catalog' {
  interface EventCatalog {
    'project.updated': { id: string; worktree: string; name?: string; [member: string]: unknown };
  }
}

export {};
