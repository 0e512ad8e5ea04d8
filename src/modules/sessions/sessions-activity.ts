import { Injectable } from '@nestjs/common';

export interface SessionActive {
  type: 'running';
}

/**
 * Takes a move for a session's running drain, in this process or another; false when the session is idle (the
 * move applies at once).
 */
export type MoveDeferral = (
  sessionID: string,
  directory: string,
  delivery: 'steer' | 'queue',
) => Promise<boolean>;

/**
 * The foreground drains this process owns (what `GET /api/session/active` lists). The drains call
 * `started`/`finished`, and take the moves of running sessions through `deferMoves`.
 */
@Injectable()
export class SessionsActivity {
  private readonly running = new Set<string>();
  private deferral?: MoveDeferral;

  deferMoves(deferral: MoveDeferral): void {
    this.deferral = deferral;
  }

  async deferMove(sessionID: string, directory: string, delivery: 'steer' | 'queue'): Promise<boolean> {
    return this.deferral ? this.deferral(sessionID, directory, delivery) : false;
  }

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
