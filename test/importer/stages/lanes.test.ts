// Which rows may be sent now: rows sharing a lane go one after another in file order, others in
// any order, in batches bounded by rows and bytes.
import { describe, expect, it } from 'vitest';
import { LaneQueue } from '../../../src/importer/stages/lanes.js';

const row = (name: string, lanes: string[], bytes = 10) => ({ name, lanes, bytes });
const names = (rows: { name: string }[]) => rows.map((r) => r.name);

describe('LaneQueue', () => {
  it('makes rows on free lanes ready at once, a row behind another on its lane waits for it', () => {
    const queue = new LaneQueue<ReturnType<typeof row>>();
    const a1 = row('a1', ['id:a']);
    queue.push(a1);
    queue.push(row('b', ['id:b']));
    queue.push(row('a2', ['id:a']));
    expect([queue.ready, queue.waiting]).toEqual([2, 1]);
    expect(names(queue.take(10, 1000))).toEqual(['a1', 'b']);
    expect(queue.taken).toBe(2);
    expect(queue.take(10, 1000)).toEqual([]);
    queue.done(a1);
    expect(names(queue.take(10, 1000))).toEqual(['a2']);
  });

  it('a row on two lanes waits for both', () => {
    const queue = new LaneQueue<ReturnType<typeof row>>();
    const x = row('x', ['id:x', 'email:e']);
    const y = row('y', ['id:y']);
    queue.push(x);
    queue.push(y);
    queue.push(row('z', ['id:y', 'email:e']));
    queue.take(10, 1000);
    queue.done(x);
    expect(queue.ready).toBe(0);
    queue.done(y);
    expect(names(queue.take(10, 1000))).toEqual(['z']);
  });

  it('takes up to maxRows, stopping before maxBytes, one row at least however large', () => {
    const queue = new LaneQueue<ReturnType<typeof row>>();
    for (const [i, bytes] of [40, 40, 40, 500].entries()) queue.push(row(`r${i}`, [`id:${i}`], bytes));
    expect(queue.readyBytes).toBe(620);
    expect(names(queue.take(2, 1000))).toEqual(['r0', 'r1']);
    expect(names(queue.take(10, 100))).toEqual(['r2']);
    expect(names(queue.take(10, 100))).toEqual(['r3']);
    expect(queue.readyBytes).toBe(0);
  });

  it('clear drops every row not taken, keeping taken ones at the head of their lanes', () => {
    const queue = new LaneQueue<ReturnType<typeof row>>();
    const a1 = row('a1', ['id:a']);
    queue.push(a1);
    queue.push(row('a2', ['id:a']));
    queue.push(row('b', ['id:b']));
    queue.take(1, 1000);
    expect(queue.clear()).toBe(2);
    expect([queue.ready, queue.waiting]).toEqual([0, 0]);
    queue.done(a1);
    expect(queue.ready).toBe(0);
    queue.push(row('a3', ['id:a']));
    expect(names(queue.take(10, 1000))).toEqual(['a3']);
  });
});
