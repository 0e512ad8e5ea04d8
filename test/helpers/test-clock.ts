import { Clock } from '../../src/common/clock';

/** A clock that follows real time until a test sets or advances it. */
export class TestClock extends Clock {
  private offsetMs = 0;

  override now(): number {
    return Date.now() + this.offsetMs;
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }

  set(epochMs: number): void {
    this.offsetMs = epochMs - Date.now();
  }
}
