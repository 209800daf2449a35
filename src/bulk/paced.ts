// The scheduler on the clock: waits until it lets an attempt leave.
import { sleep } from '../client/retry.js';
import type { Scheduler } from './scheduler.js';

/** Thrown by `paced` for an attempt cancelled while it waited: it was never sent. */
export class NotSent extends Error {
  override name = 'NotSent';
}

/**
 * Resolves with the ticket of an attempt leaving now, once the scheduler's pace allows it; throws
 * NotSent instead when `cancelled()` turns true while it waits.
 */
export async function paced(scheduler: Scheduler, cancelled?: () => boolean): Promise<number> {
  for (;;) {
    if (cancelled?.()) throw new NotSent('stopped before it was sent');
    const wait = scheduler.delay(Date.now());
    if (wait <= 0) return scheduler.sent(Date.now());
    await sleep(wait);
  }
}
