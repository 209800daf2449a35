// One request per item, under the bulk commands' scheduler (./scheduler.ts): at most `concurrency`
// in flight (fewer while the service asks for less), every attempt paced and its answer reported.
// What teardown and undo send; the import's batches have their own sink (importer/stages), whose
// requests are paced alike (pacedAttempts, ./paced.ts).
import { PathParamError } from '../api/operations.js';
import { AgentNotFoundError } from '../client/errors.js';
import type { RequestOptions } from '../client/resources/core.js';
import { DEFAULT_CONCURRENCY, DEFAULT_RETRIES } from './defaults.js';
import { NotSent, pacedAttempts } from './paced.js';
import { Scheduler } from './scheduler.js';

export { DEFAULT_CONCURRENCY, DEFAULT_RETRIES };

/** What `send` passes to the client call of its item. */
export type PacedRequest = Pick<RequestOptions, 'maxRetries' | 'beforeAttempt' | 'onAttempt'>;

export interface PacedRunOptions {
  concurrency?: number | undefined;
  maxRetries?: number | undefined;
  /** Stops taking items; those in flight finish. */
  signal?: AbortSignal | undefined;
}

export interface PacedRunResult {
  /** Items whose request was sent (its outcome is `send`'s to record). */
  sent: number;
  /** The signal stopped the run before every item was sent. */
  interrupted: boolean;
}

/**
 * Runs `send(item, request)` for each item in order. `send` records its item's outcome (a 404 or a
 * refusal about that one item is its business); what it throws stops the run: no item starts
 * after it, those in flight finish, and the first error is thrown again.
 */
export async function runPaced<T>(
  items: Iterable<T> | AsyncIterable<T>,
  send: (item: T, request: PacedRequest) => Promise<void>,
  options: PacedRunOptions = {},
): Promise<PacedRunResult> {
  const scheduler = new Scheduler({ max: options.concurrency ?? DEFAULT_CONCURRENCY });
  const active = new Set<Promise<void>>();
  let slotFreed: (() => void) | undefined;
  let fatal: { error: unknown } | undefined;
  let sent = 0;
  let unsent = false;
  const stopped = () => Boolean(options.signal?.aborted) || fatal !== undefined;
  for await (const item of items) {
    while (!scheduler.canStart && !stopped()) await new Promise<void>((resolve) => (slotFreed = resolve));
    if (stopped()) {
      unsent = true;
      break;
    }
    scheduler.acquire();
    const request: PacedRequest = {
      maxRetries: options.maxRetries ?? DEFAULT_RETRIES,
      ...pacedAttempts(scheduler, {
        stopped,
        sent: (attempt) => {
          if (attempt === 1) sent++;
        },
      }),
    };
    const task = send(item, request)
      .catch((error: unknown) => {
        if (error instanceof NotSent) unsent = true;
        else fatal ??= { error };
      })
      .finally(() => {
        scheduler.release();
        active.delete(task);
        slotFreed?.();
      });
    active.add(task);
  }
  await Promise.all(active);
  if (fatal) throw fatal.error;
  return { sent, interrupted: unsent && Boolean(options.signal?.aborted) };
}

/**
 * A 4xx about one contact (not the key, the agent or the rate), or a contact id no request can
 * carry (`..`): that item fails alone.
 */
export function isAboutOneContact(error: unknown): boolean {
  if (error instanceof PathParamError) return error.param === 'id';
  const status = (error as { status?: number }).status;
  return (
    !(error instanceof AgentNotFoundError) &&
    status !== undefined &&
    status >= 400 &&
    status < 500 &&
    status !== 401 &&
    status !== 403 &&
    status !== 429
  );
}
