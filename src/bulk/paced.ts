// The scheduler on the clock: waits until it lets an attempt leave, and tells it each answer.

import type { RequestOptions } from '../client/resources/core.js';
import { sleep } from '../client/retry.js';
import type { AttemptEvent } from '../client/transport.js';
import { ContactsError } from '../core/error.js';
import type { Scheduler } from './scheduler.js';

/** Thrown by `paced` for an attempt cancelled while it waited: it was never sent. */
export class NotSent extends ContactsError {}

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

export interface PacedAttemptsOptions {
  /** The first attempt's ticket, when the caller paced it already (it leaves at once). */
  ticket?: number | undefined;
  /**
   * Once true, a first attempt still waiting is not sent (NotSent); a retry finishes what it
   * began.
   */
  stopped: () => boolean;
  /** An attempt leaves. */
  sent?: (attempt: number) => void;
  /** An attempt ended (status 0 without an answer), after the scheduler was told. */
  answered?: (event: AttemptEvent) => void;
}

/**
 * A request's options that pace every attempt under `scheduler` and report each answer to it
 * (its status and rate-limit headers): what every request of a bulk command carries. The slot
 * the request runs in (`acquire`/`release`) is the caller's: one slot may carry several requests.
 */
export function pacedAttempts(
  scheduler: Scheduler,
  options: PacedAttemptsOptions,
): Required<Pick<RequestOptions, 'beforeAttempt' | 'onAttempt'>> {
  let ticket = options.ticket;
  return {
    beforeAttempt: async (attempt) => {
      ticket ??= await paced(scheduler, () => attempt === 1 && options.stopped());
      options.sent?.(attempt);
    },
    onAttempt: (event) => {
      scheduler.answered(ticket ?? 0, event.status, event.headers, Date.now());
      ticket = undefined;
      options.answered?.(event);
    },
  };
}
