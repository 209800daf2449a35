// The plan stage: in-file email conflicts (in file order, an email given up is free again), the
// lanes that keep rows sharing an external_id or a passed-on email in file order.
import { describe, expect, it } from 'vitest';
import type { ContactInputParsed } from '../../../src/api/contact.js';
import type { SourceRecord } from '../../../src/importer/sources/types.js';
import { EmailLedger } from '../../../src/importer/stages/email-ledger.js';
import { LaneQueue } from '../../../src/importer/stages/lanes.js';
import { RowPlanner } from '../../../src/importer/stages/row-planner.js';
import { fieldsSent } from '../../../src/undo/record.js';

let line = 1;
const row = (external_id: string, email?: string | null): [SourceRecord, ContactInputParsed] => {
  line++;
  const input = { external_id, ...(email === undefined ? {} : { email }) } as ContactInputParsed;
  return [{ row: line - 1, line, record: {} }, input];
};

describe('in-file email conflicts', () => {
  it('rejects a later row that takes an email another external_id holds, naming its line', () => {
    line = 1;
    const planner = new RowPlanner();
    expect(planner.plan(...row('a', 'ada@example.com')).ok).toBe(true); // line 2
    expect(planner.plan(...row('b', 'bob@example.com')).ok).toBe(true); // line 3
    const clash = planner.plan(...row('c', 'ADA@example.com')); // line 4
    expect(clash).toEqual({
      ok: false,
      reason: expect.stringMatching(/^email: ADA@example.com is already the email of line 2 /),
    });
    // The same external_id may repeat its own email, and rows without an email pass.
    expect(planner.plan(...row('a', 'ada@example.com')).ok).toBe(true);
    expect(planner.plan(...row('c')).ok).toBe(true);
  });

  it("names the holder by its title where the record has one (a vCard: the card's name)", () => {
    line = 1;
    const planner = new RowPlanner();
    const titled = (title: string, ...args: Parameters<typeof row>): [SourceRecord, ContactInputParsed] => {
      const [source, input] = row(...args);
      return [{ ...source, title }, input];
    };
    expect(planner.plan(...titled('Ann Lee', 'a', 'ann@example.com')).ok).toBe(true); // line 2
    expect(planner.plan(...titled('Annie Lee', 'b', 'ANN@example.com'))).toEqual({
      ok: false,
      reason:
        'email: ANN@example.com is already the email of Ann Lee (line 2; another external_id: the service refuses two contacts with one email)',
    });
    // A row that landed in an earlier run holds its email under its own title.
    planner.landedBefore(...titled('Bo Lee', 'c', 'bo@example.com')); // line 4
    expect(planner.plan(...row('d', 'bo@example.com'))).toMatchObject({
      reason: expect.stringMatching(/^email: bo@example.com is already the email of Bo Lee \(line 4; /),
    });
    // Given up, the title goes with the email: the next holder has none.
    expect(planner.plan(...titled('Ann Lee', 'a', 'ann.lee@example.com')).ok).toBe(true);
    expect(planner.plan(...row('e', 'ann@example.com')).ok).toBe(true); // line 7
    expect(planner.plan(...row('f', 'ann@example.com'))).toMatchObject({
      reason: expect.stringMatching(/^email: ann@example.com is already the email of line 7 \(/),
    });
  });

  it('frees an email its holder gives up, from that row on (in file order)', () => {
    line = 1;
    const planner = new RowPlanner();
    expect(planner.plan(...row('a', 'x@example.com')).ok).toBe(true); // line 2: a takes x
    expect(planner.plan(...row('b', 'x@example.com')).ok).toBe(false); // line 3: still a's
    const release = planner.plan(...row('a', 'y@example.com')); // line 4: a moves to y
    expect(release.ok).toBe(true);
    const take = planner.plan(...row('b', 'x@example.com')); // line 5: x is free again
    expect(take.ok).toBe(true);
    // Line 5 must land after line 4 (which gives x up): they share x's lane.
    if (release.ok && take.ok) {
      const shared = take.row.lanes.filter((l) => release.row.lanes.includes(l));
      expect(shared).toHaveLength(1);
    }
    // Clearing an email frees it too.
    expect(planner.plan(...row('c', 'z@example.com')).ok).toBe(true);
    expect(planner.plan(...row('c', null)).ok).toBe(true);
    expect(planner.plan(...row('d', 'z@example.com')).ok).toBe(true);
    // A conflicting row changes nothing: b still holds x.
    expect(planner.plan(...row('e', 'x@example.com'))).toMatchObject({ ok: false });
  });

  it('counts rows that landed in an earlier run as holding their emails', () => {
    line = 1;
    const planner = new RowPlanner();
    planner.landedBefore(...row('a', 'ada@example.com'));
    expect(planner.plan(...row('b', 'ada@example.com'))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('line 2'),
    });
  });

  it('stays within its budget, forgetting entries rather than inventing conflicts', () => {
    const ledger = new EmailLedger({ maxEntries: 1000 });
    for (let i = 0; i < 5000; i++) {
      expect(ledger.claim(`k${i}`, `e${i}@example.com`, i + 2).ok).toBe(true);
    }
    expect(ledger.forgotten).toBeGreaterThan(3000);
    // Every external_id moves to a new email: none may be refused, whatever was forgotten.
    for (let i = 0; i < 5000; i++) expect(ledger.claim(`k${i}`, `n${i}@example.com`, 9000 + i).ok).toBe(true);
    // And the old emails are free for others.
    for (let i = 0; i < 5000; i++)
      expect(ledger.claim(`o${i}`, `e${i}@example.com`, 20000 + i).ok).toBe(true);
  });

  it('forgets the oldest claims first once full', () => {
    const ledger = new EmailLedger({ maxEntries: 20_000 });
    for (let i = 0; i < 200_000; i++) ledger.claim(`k${i}`, `e${i}@example.com`, i + 2);
    expect(ledger.forgotten).toBe(180_000);
    // The latest 20,000 are remembered; the earlier ones were left to the service.
    expect(ledger.claim('other', 'e199999@example.com', 300_000)).toEqual({ ok: false, heldByLine: 200_001 });
    expect(ledger.claim('other', 'e180000@example.com', 300_001)).toEqual({ ok: false, heldByLine: 180_002 });
    expect(ledger.claim('other', 'e179999@example.com', 300_002).ok).toBe(true);
  });

  it('serialises each row once for the request body, with its size in bytes', () => {
    line = 1;
    const result = new RowPlanner().plan(...row('é1', 'x@example.com'));
    expect(result.ok && JSON.parse(result.row.json)).toEqual({ external_id: 'é1', email: 'x@example.com' });
    expect(result.ok && result.row.bytes).toBe(Buffer.byteLength(result.ok ? result.row.json : ''));
  });

  it('lists the fields each row sets, as the undo record does from its JSON', () => {
    line = 1;
    const planner = new RowPlanner();
    const inputs = [
      { external_id: 'a', name: 'Ann', email: null, custom_attributes: { plan: 'pro', gone: undefined } },
      { external_id: 'b', name: 'Bo', email: null, custom_attributes: { plan: 'free' } },
      { external_id: 'c', phonenumber: '+442079460958', stripe_accounts: [], custom_attributes: null },
      { external_id: 'd' },
    ] as unknown as ContactInputParsed[];
    for (const input of inputs) {
      const result = planner.plan({ row: line, line: ++line, record: {} }, input);
      if (!result.ok) throw new Error(result.reason);
      expect(JSON.parse(result.row.sent!)).toEqual(fieldsSent(result.row.json));
    }
  });
});

describe('lanes', () => {
  const r = (name: string, lanes: number[], bytes = 10) => ({ name, lanes: lanes.map(String), bytes });

  it('keeps rows sharing a lane apart and in order, and batches the rest', () => {
    const q = new LaneQueue<ReturnType<typeof r>>();
    const a1 = r('a1', [1]);
    const b1 = r('b1', [2]);
    const a2 = r('a2', [1]);
    const c1 = r('c1', [3]);
    for (const x of [a1, b1, a2, c1]) q.push(x);
    expect(q.ready).toBe(3);
    expect(q.waiting).toBe(1);
    const first = q.take(10, 1000);
    expect(first.map((x) => x.name)).toEqual(['a1', 'b1', 'c1']);
    // a2 is not ready while a1 is in flight.
    expect(q.take(10, 1000)).toEqual([]);
    q.done(b1);
    expect(q.ready).toBe(0);
    q.done(a1);
    expect(q.take(10, 1000).map((x) => x.name)).toEqual(['a2']);
  });

  it('waits for every lane a row is on', () => {
    const q = new LaneQueue<ReturnType<typeof r>>();
    const giveUp = r('a: x -> y', [1, 100, 200]);
    const take = r('b: takes x', [2, 100]);
    q.push(giveUp);
    q.push(take);
    expect(q.take(10, 1000).map((x) => x.name)).toEqual(['a: x -> y']);
    q.done(giveUp);
    expect(q.take(10, 1000).map((x) => x.name)).toEqual(['b: takes x']);
  });

  it('fills a batch up to its rows and bytes, one row at least', () => {
    const q = new LaneQueue<ReturnType<typeof r>>();
    for (let i = 0; i < 10; i++) q.push(r(`r${i}`, [i], 100));
    q.push(r('big', [99], 5000));
    expect(q.take(3, 1000)).toHaveLength(3);
    expect(q.take(100, 450)).toHaveLength(4);
    expect(q.readyBytes).toBe(300 + 5000);
    expect(q.take(100, 450)).toHaveLength(3);
    expect(q.take(100, 450).map((x) => x.name)).toEqual(['big']);
  });

  it('drops what was not sent when cleared, keeping rows in flight on their lanes', () => {
    const q = new LaneQueue<ReturnType<typeof r>>();
    const a1 = r('a1', [1]);
    q.push(a1);
    q.take(1, 1000);
    q.push(r('a2', [1]));
    q.push(r('b1', [2]));
    expect(q.clear()).toBe(2);
    q.done(a1);
    expect(q.ready + q.waiting).toBe(0);
  });
});

describe('rows with the key of an earlier row', () => {
  const named = (external_id: string, name: string, email?: string): [SourceRecord, ContactInputParsed] => {
    line++;
    const input = { external_id, name, ...(email ? { email } : {}) } as ContactInputParsed;
    return [{ row: line - 1, line, record: {} }, input];
  };

  it('says which earlier line a repeated key updates (the last to name it), with both names when they differ', () => {
    line = 1;
    const planner = new RowPlanner();
    expect(planner.plan(...named('k1', 'Maria Ng'))).toMatchObject({ ok: true, repeats: undefined });
    expect(planner.plan(...named('k1', 'maria  ng'))).toMatchObject({ ok: true, repeats: { line: 2 } });
    // The key's last row is the one named: line 3.
    const renamed = planner.plan(...named('k1', 'Maria Ng-Lee'));
    expect(renamed).toMatchObject({
      ok: true,
      repeats: { line: 3, otherName: 'maria  ng', otherPerson: false },
    });
  });

  it('refuses a row that names another person under an email key, and remembers no refused row', () => {
    line = 1;
    const planner = new RowPlanner({ keyFromEmail: true });
    expect(planner.plan(...named('tom@example.com', 'Tom Walker', 'tom@example.com')).ok).toBe(true);
    const other = planner.plan(...named('tom@example.com', 'Samuel Evans', 'Tom@Example.com'));
    expect(other).toEqual({
      ok: false,
      reason: expect.stringMatching(/^email: Tom@Example.com is already the email of Tom Walker \(line 2\)/),
    });
    // The refused row is not remembered: a third row of Tom's is his, repeated.
    expect(planner.plan(...named('tom@example.com', 'Tom Walker', 'tom@example.com'))).toMatchObject({
      ok: true,
      repeats: { line: 2 },
    });
  });

  it('refuses a row that names another person under an id key too: the later row would overwrite the earlier', () => {
    line = 1;
    const byId = new RowPlanner();
    expect(byId.plan(...named('7', 'Maria Ng')).ok).toBe(true);
    expect(byId.plan(...named('7', 'Tom Walker'))).toEqual({
      ok: false,
      reason:
        'external_id: 7 is already the key of Maria Ng (line 2), and this row is Tom Walker: two people with ' +
        'one external_id are not merged (this row would overwrite that contact); give this row its own ' +
        'external_id, or, if it is one person renamed, import the rejects file',
    });
    // One who changed a name is still the same person: updated, warned.
    expect(byId.plan(...named('7', 'Maria Ng-Lee'))).toMatchObject({
      ok: true,
      repeats: { line: 2, otherName: 'Maria Ng', otherPerson: false },
    });
    // Renamed again, compared with the last name: Mia Lee shares Lee with Maria Ng-Lee.
    expect(byId.plan(...named('7', 'Mia Lee'))).toMatchObject({
      ok: true,
      repeats: { line: 4, otherName: 'Maria Ng-Lee', otherPerson: false },
    });
  });

  it('takes a name with no word (-, ?) for no name: never another person', () => {
    line = 1;
    const planner = new RowPlanner();
    expect(planner.plan(...named('9', 'Maria Ng')).ok).toBe(true);
    expect(planner.plan(...named('9', '-')).ok).toBe(true);
    expect(planner.plan(...named('8', '?')).ok).toBe(true);
    expect(planner.plan(...named('8', 'Tom Walker')).ok).toBe(true);
  });

  it('forgets the oldest key past its bound', () => {
    line = 1;
    const planner = new RowPlanner({ maxKeys: 2 });
    planner.plan(...named('a', 'A'));
    planner.plan(...named('b', 'B'));
    planner.plan(...named('c', 'C'));
    expect(planner.plan(...named('a', 'A'))).toMatchObject({ ok: true, repeats: undefined });
    expect(planner.plan(...named('c', 'C'))).toMatchObject({ ok: true, repeats: { line: 4 } });
  });
});
