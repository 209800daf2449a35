// Pacing one request's attempts: each leaves under the scheduler's pace (or with the ticket the
// caller already holds), each answer is reported with its ticket, and a stopped run sends no first
// attempt but finishes a retry.
import { describe, expect, it } from 'vitest';
import { NotSent, pacedAttempts } from '../../src/bulk/paced.js';
import type { Scheduler } from '../../src/bulk/scheduler.js';
import type { AttemptEvent } from '../../src/client/transport.js';

/** A scheduler that never makes anyone wait, and records the tickets it hands out and is told of. */
function recordingScheduler() {
  let next = 0;
  const sent: number[] = [];
  const answered: { ticket: number; status: number }[] = [];
  const scheduler = {
    delay: () => 0,
    sent: () => {
      sent.push(++next);
      return next;
    },
    answered: (ticket: number, status: number) => void answered.push({ ticket, status }),
  } as unknown as Scheduler;
  return { scheduler, sent, answered };
}

const answer = (attempt: number, status: number): AttemptEvent => ({
  attempt,
  status,
  headers: {},
  latencyMs: 1,
});

describe('pacedAttempts', () => {
  it('takes a ticket for every attempt and reports each answer under its own ticket', async () => {
    const { scheduler, sent, answered } = recordingScheduler();
    const attempts: number[] = [];
    const events: number[] = [];
    const request = pacedAttempts(scheduler, {
      stopped: () => false,
      sent: (attempt) => attempts.push(attempt),
      answered: (event) => events.push(event.status),
    });
    await request.beforeAttempt(1);
    request.onAttempt(answer(1, 503));
    await request.beforeAttempt(2);
    request.onAttempt(answer(2, 200));
    expect(sent).toEqual([1, 2]);
    expect(answered).toEqual([
      { ticket: 1, status: 503 },
      { ticket: 2, status: 200 },
    ]);
    expect(attempts).toEqual([1, 2]);
    expect(events).toEqual([503, 200]);
  });

  it('a first attempt the caller paced leaves on its ticket; a retry is paced again', async () => {
    const { scheduler, sent, answered } = recordingScheduler();
    const request = pacedAttempts(scheduler, { ticket: 41, stopped: () => false });
    await request.beforeAttempt(1);
    request.onAttempt(answer(1, 429));
    expect(sent).toEqual([]);
    await request.beforeAttempt(2);
    request.onAttempt(answer(2, 200));
    expect(answered).toEqual([
      { ticket: 41, status: 429 },
      { ticket: 1, status: 200 },
    ]);
  });

  it('once stopped, a first attempt is not sent (NotSent), but a retry finishes what it began', async () => {
    const { scheduler, sent } = recordingScheduler();
    let stopped = true;
    const first = pacedAttempts(scheduler, { stopped: () => stopped });
    await expect(first.beforeAttempt(1)).rejects.toBeInstanceOf(NotSent);
    expect(sent).toEqual([]);
    const begun = pacedAttempts(scheduler, { stopped: () => stopped });
    stopped = false;
    await begun.beforeAttempt(1);
    begun.onAttempt(answer(1, 500));
    stopped = true;
    await begun.beforeAttempt(2);
    expect(sent).toEqual([1, 2]);
  });
});
