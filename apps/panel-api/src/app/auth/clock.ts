/** The time in milliseconds since the epoch; a port so throttling and TOTP can be tested without waiting. */
export abstract class Clock {
  abstract now(): number;
}

export class SystemClock extends Clock {
  now(): number {
    return Date.now();
  }
}
