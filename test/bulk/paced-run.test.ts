// One request per item under the scheduler: never more in flight than allowed, a fatal error
// stops the run (those in flight finish), and Ctrl-C leaves the rest unsent.
import { describe, expect, it } from 'vitest';
import { runPaced } from '../../src/bulk/paced-run.js';

/** A send whose requests finish when the test says: `release()` answers every one in flight. */
function manual() {
  const waiting: (() => void)[] = [];
  let inFlight = 0;
  let most = 0;
  const done: number[] = [];
  return {
    done,
    get most() {
      return most;
    },
    release() {
      for (const resolve of waiting.splice(0)) resolve();
    },
    waiting,
    async send(item: number, request: Parameters<Parameters<typeof runPaced<number>>[1]>[1]) {
      await request.beforeAttempt?.(1);
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise<void>((resolve) => waiting.push(resolve));
      inFlight--;
      request.onAttempt?.({ attempt: 1, status: 200, headers: {} } as never);
      done.push(item);
    },
  };
}

async function until(check: () => boolean) {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}

describe('runPaced', () => {
  it('keeps at most `concurrency` requests in flight and sends every item', async () => {
    const link = manual();
    const run = runPaced([1, 2, 3, 4, 5, 6, 7], (item, request) => link.send(item, request), {
      concurrency: 2,
    });
    let finished = false;
    void run.then(() => (finished = true));
    while (!finished) {
      await until(() => link.waiting.length > 0 || finished);
      link.release();
    }
    expect((await run).sent).toBe(7);
    expect(link.done.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(link.most).toBeLessThanOrEqual(2);
  });

  it('stops on an error its send throws: no item starts after it, the error is thrown', async () => {
    const started: number[] = [];
    const run = runPaced(
      [1, 2, 3, 4],
      async (item, request) => {
        await request.beforeAttempt?.(1);
        request.onAttempt?.({ attempt: 1, status: item === 2 ? 503 : 200, headers: {} } as never);
        started.push(item);
        if (item === 2) throw new Error('service down');
      },
      { concurrency: 1 },
    );
    await expect(run).rejects.toThrow('service down');
    expect(started).toEqual([1, 2]);
  });

  it('an aborted signal leaves the rest unsent and says it was interrupted', async () => {
    const controller = new AbortController();
    const sent: number[] = [];
    const result = await runPaced(
      [1, 2, 3, 4],
      async (item, request) => {
        await request.beforeAttempt?.(1);
        request.onAttempt?.({ attempt: 1, status: 200, headers: {} } as never);
        sent.push(item);
        if (item === 2) controller.abort();
      },
      { concurrency: 1, signal: controller.signal },
    );
    expect(result.interrupted).toBe(true);
    expect(sent).toEqual([1, 2]);
  });
});
