/** What an editor integration asks of an attached opencode TUI (`/tui/*`), as opencode names the events. */
declare module '@/common/events/event-catalog' {
  interface EventCatalog {
    'tui.prompt.append': { text: string };
    'tui.command.execute': { command: string };
    'tui.toast.show': { title?: string; message: string; variant: string; duration?: number };
    'tui.session.select': { sessionID: string };
  }
}

export const TUI_EVENTS = [
  'tui.prompt.append',
  'tui.command.execute',
  'tui.toast.show',
  'tui.session.select',
] as const;
