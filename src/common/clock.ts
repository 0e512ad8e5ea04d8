import { Injectable } from '@nestjs/common';

/** The time, behind a class so tests can move it (expiry, month rollover) without waiting. */
@Injectable()
export class Clock {
  now(): number {
    return Date.now();
  }

  date(): Date {
    return new Date(this.now());
  }
}
