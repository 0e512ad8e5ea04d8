import { Injectable } from '@nestjs/common';

export interface SessionActive {
  type: 'running';
}

/**
 * The foreground drains this process owns (what `GET /api/session/active` lists). The prompt issue's
 * runner calls `started`/`finished`; until then nothing runs and the map stays empty.
 */
@Injectable()
export class SessionsActivity {
  private readonly running = new Set<string>();

  started(sessionID: string): void {
    this.running.add(sessionID);
  }

  finished(sessionID: string): void {
    this.running.delete(sessionID);
  }

  isActive(sessionID: string): boolean {
    return this.running.has(sessionID);
  }

  active(): Record<string, SessionActive> {
    const out: Record<string, SessionActive> = {};
    for (const id of this.running) out[id] = { type: 'running' };
    return out;
  }
}
