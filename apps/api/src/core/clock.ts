/**
 * The time the billing cycle runs on. Production reads the system clock; a test hands the app a
 * clock it moves, so months of renewals pass in seconds (docs/product.md "Renewals").
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until moved: tests and the bench. */
export class ManualClock implements Clock {
  private at: number;
  constructor(start: Date) {
    this.at = start.getTime();
  }
  now(): Date {
    return new Date(this.at);
  }
  set(to: Date): void {
    this.at = to.getTime();
  }
  advance(ms: number): void {
    this.at += ms;
  }
}

/** The system clock moved forward by the platform operator (TEST_CLOCK=on: browser tests). */
export class OffsetClock implements Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}
