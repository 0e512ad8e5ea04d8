import { renameSync, writeFileSync } from 'node:fs';
import { Clock } from '../../src/common/clock';

/** A clock that follows real time until a test sets or advances it. */
export class TestClock extends Clock {
  private offsetMs = 0;
  private file?: string;

  override now(): number {
    return Date.now() + this.offsetMs;
  }

  advance(ms: number): void {
    this.offsetMs += ms;
    this.publish();
  }

  set(epochMs: number): void {
    this.offsetMs = epochMs - Date.now();
    this.publish();
  }

  /** Keeps `file` holding the offset, for nodes in other processes (test/helpers/fleet-node.js reads it). */
  shareThrough(file: string): void {
    this.file = file;
    this.publish();
  }

  private publish(): void {
    if (!this.file) return;
    // Whole or not at all: a node reading it mid-write must not see an empty offset.
    writeFileSync(`${this.file}.next`, String(this.offsetMs));
    renameSync(`${this.file}.next`, this.file);
  }
}
