import type { AssistantMessage } from '../../sessions/session-message.types';
import { Snapshots } from './snapshots';

/** Tools that may change the location's files: a step that runs one gets snapshots around its tools. */
const CHANGING_TOOLS = new Set(['edit', 'write', 'bash']);

/**
 * The snapshots of one step (`message.snapshot`): `start` before its first tool that may change files, `end`
 * after its tools. A step that only reads takes none (so it costs nothing); undo restores `start`.
 */
export class StepSnapshot {
  constructor(
    private readonly snapshots: Snapshots,
    private readonly directory: string,
    private readonly message: AssistantMessage,
  ) {}

  async before(tool: string): Promise<void> {
    if (!CHANGING_TOOLS.has(tool) || this.message.snapshot?.start) return;
    const start = await this.snapshots.track(this.directory);
    if (start) this.message.snapshot = { start };
  }

  async after(): Promise<void> {
    if (!this.message.snapshot?.start) return;
    const end = await this.snapshots.track(this.directory);
    if (end) this.message.snapshot = { ...this.message.snapshot, end };
  }
}
