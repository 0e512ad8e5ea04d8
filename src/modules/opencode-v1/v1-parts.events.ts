/** A client's edit of one part of a stored message (`part.update`, `part.delete`), as opencode names the events. */
declare module '@/common/events/event-catalog' {
  interface EventCatalog {
    /** `part`: the v1 part as it is now. */
    'message.part.updated': {
      sessionID: string;
      part: { id: string; [member: string]: unknown };
      time: number;
    };
    'message.part.removed': { sessionID: string; messageID: string; partID: string };
  }
}

export {};
