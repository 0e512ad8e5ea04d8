import { Injectable } from '@nestjs/common';
import { ConflictError } from '@/common/errors';
import { EventsPublisher } from '@/common/events';
import { MessageNotFoundError } from '../../sessions/sessions.errors';
import { SessionMessageInfo } from '../../sessions/session-message.types';
import { SessionInfo } from '../../sessions/session.types';
import { SessionsActivity } from '../../sessions/sessions-activity';
import { SessionsService } from '../../sessions/sessions.service';
import { Snapshots } from '../snapshots/snapshots';

/**
 * Undo and redo (the TUI's /undo and /redo): a revert puts the location's files back as they were before a
 * message (the snapshot its first changing step took) and hides that message and the ones after it; an unrevert
 * brings files and messages back; the next prompt (or a commit) drops the reverted messages for good. Only files
 * inside the location are touched.
 */
@Injectable()
export class SessionRevert {
  constructor(
    private readonly sessions: SessionsService,
    private readonly activity: SessionsActivity,
    private readonly snapshots: Snapshots,
    private readonly events: EventsPublisher,
  ) {}

  async revert(sessionID: string, messageID: string, partID?: string): Promise<SessionInfo> {
    const session = await this.idle(sessionID);
    const messages = await this.sessions.messages(sessionID);
    // v1 clients know a command's or a compaction's answer by its own id.
    const index = messages.findIndex(
      (m) => m.id === messageID || (m as { answerID?: string }).answerID === messageID,
    );
    if (index < 0) throw new MessageNotFoundError(sessionID, messageID);
    const directory = session.location.directory;
    // The files as they are before any revert: what an unrevert brings back.
    const current = session.revert?.snapshot ?? (await this.snapshots.track(directory));
    const start = firstSnapshot(messages.slice(index)) ?? current;
    if (start) await this.snapshots.restore(directory, start);
    return this.sessions.setRevert(sessionID, {
      messageID: messages[index].id,
      ...(partID ? { partID } : {}),
      ...(current ? { snapshot: current } : {}),
    });
  }

  /** Brings the files and messages of a staged revert back. */
  async unrevert(sessionID: string): Promise<SessionInfo> {
    const session = await this.idle(sessionID);
    if (!session.revert) return session;
    if (session.revert.snapshot) {
      await this.snapshots.restore(session.location.directory, session.revert.snapshot);
    }
    return this.sessions.setRevert(sessionID, null);
  }

  /** Makes a staged revert final: its messages are deleted (announced as removed) and the revert cleared. */
  async commit(sessionID: string): Promise<void> {
    const session = await this.sessions.get(sessionID);
    const revert = session.revert;
    if (!revert) return;
    const removed = (await this.sessions.messages(sessionID)).filter((m) => m.id >= revert.messageID);
    await this.sessions.deleteMessagesFrom(sessionID, revert.messageID);
    for (const message of removed) {
      this.events.publish(
        'session.message.removed',
        { sessionID, messageID: message.id, ...answerID(message) },
        session.location,
      );
    }
    await this.sessions.setRevert(sessionID, null);
  }

  private async idle(sessionID: string): Promise<SessionInfo> {
    const session = await this.sessions.get(sessionID);
    if (this.activity.active()[sessionID]) {
      throw new ConflictError(`Session ${sessionID} is running; undo once it is idle`, sessionID);
    }
    return session;
  }
}

/** The snapshot the first file-changing step among these messages took before its tools. */
function firstSnapshot(messages: SessionMessageInfo[]): string | undefined {
  for (const message of messages) {
    if (message.type === 'assistant' && message.snapshot?.start) return message.snapshot.start;
  }
  return undefined;
}

function answerID(message: SessionMessageInfo): { answerID?: string } {
  const id = (message as { answerID?: string }).answerID;
  return id ? { answerID: id } : {};
}
