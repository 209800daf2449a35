// The scheduler on the clock: waits until it lets an attempt leave.
import { sleep } from '../client/retry.js';
import type { Scheduler } from './scheduler.js';

/**
 * Resolves with the ticket of an attempt leaving now, once the scheduler's pace allows it; with
 * undefined instead when `cancelled()` turns true while it waits (the attempt is not sent).
 */
export async function paced(scheduler: Scheduler, cancelled?: () => boolean): Promise<number | undefined> {
  for (;;) {
    if (cancelled?.()) return undefined;
    const wait = scheduler.delay(Date.now());
    if (wait <= 0) return scheduler.sent(Date.now());
    await sleep(wait);
  }
}
