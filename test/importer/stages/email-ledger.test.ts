// Which email each external_id holds, row after row: a row taking another's email is caught
// with the line that holds it; an email given up is free again; memory stays bounded.
import { describe, expect, it } from 'vitest';
import { EmailLedger } from '../../../src/importer/stages/email-ledger.js';

describe('EmailLedger', () => {
  it('refuses an email another external_id holds, naming its line and title, case aside', () => {
    const ledger = new EmailLedger();
    expect(ledger.claim('u1', 'Ann@x.co', 2)).toEqual({ ok: true, emailLanes: ['ann@x.co'] });
    expect(ledger.claim('u2', 'ann@X.CO', 5)).toEqual({ ok: false, heldByLine: 2 });
    ledger.claim('u3', 'card@x.co', 7, 'Ada Lovelace');
    expect(ledger.claim('u4', 'card@x.co', 9)).toEqual({
      ok: false,
      heldByLine: 7,
      heldByTitle: 'Ada Lovelace',
    });
  });

  it('lets a row keep its own email, and frees one its holder gives up or clears', () => {
    const ledger = new EmailLedger();
    ledger.claim('u1', 'a@x.co', 2);
    expect(ledger.claim('u1', 'a@x.co', 3)).toEqual({ ok: true, emailLanes: ['a@x.co'] });
    // u1 moves to b@: both emails' lanes, and a@ is free for u2.
    expect(ledger.claim('u1', 'b@x.co', 4)).toEqual({
      ok: true,
      emailLanes: ['a@x.co', 'b@x.co'],
    });
    expect(ledger.claim('u2', 'a@x.co', 5).ok).toBe(true);
    expect(ledger.claim('u1', null, 6)).toEqual({ ok: true, emailLanes: ['b@x.co'] });
    expect(ledger.claim('u3', 'b@x.co', 7).ok).toBe(true);
  });

  it('leaves a row that does not touch the email alone, and changes nothing for a conflict', () => {
    const ledger = new EmailLedger();
    ledger.claim('u1', 'a@x.co', 2);
    expect(ledger.claim('u1', undefined, 3)).toEqual({ ok: true, emailLanes: [] });
    ledger.claim('u2', 'b@x.co', 4);
    expect(ledger.claim('u2', 'a@x.co', 5).ok).toBe(false);
    // u2 still holds b@.
    expect(ledger.claim('u9', 'b@x.co', 6)).toEqual({ ok: false, heldByLine: 4 });
  });

  it('hold records a row landed earlier without a check, taking the email from whoever was thought to hold it', () => {
    const ledger = new EmailLedger();
    ledger.claim('u1', 'a@x.co', 2);
    ledger.hold('u2', 'A@x.co', 8);
    expect(ledger.claim('u3', 'a@x.co', 9)).toEqual({ ok: false, heldByLine: 8 });
  });

  it('forgets the oldest claims past its bound: a conflict that far apart is left to the service', () => {
    const ledger = new EmailLedger({ maxEntries: 2 });
    ledger.claim('u1', 'a@x.co', 1);
    ledger.claim('u2', 'b@x.co', 2);
    ledger.claim('u3', 'c@x.co', 3);
    expect(ledger.forgotten).toBe(1);
    expect(ledger.claim('u9', 'a@x.co', 4).ok).toBe(true);
    expect(ledger.claim('u8', 'c@x.co', 5)).toEqual({ ok: false, heldByLine: 3 });
  });
});
