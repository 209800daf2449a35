// The check every walk of all pages makes, on pages made by hand (in any order, as the bulk reader
// gets them), and the read-again loop around a walk.
import { describe, expect, it } from 'vitest';
import { BadRequestError, ContactsError, InconsistentListError } from '../../src/client/errors.js';
import { WalkCheck, walkUntilConsistent } from '../../src/client/walk.js';

const page = (n: number, total: number, ids: string[]) => ({
  page: n,
  total,
  data: ids.map((id) => ({ id })),
});

describe('WalkCheck', () => {
  it('passes a whole walk, its pages in any order', () => {
    const check = new WalkCheck();
    check.page(page(2, 4, ['c', 'd']));
    check.page(page(1, 4, ['a', 'b']));
    expect(check.seen).toBe(4);
    expect(() => check.end()).not.toThrow();
  });

  it('fails a page with another total, a contact twice, or a short walk', () => {
    const changed = new WalkCheck();
    changed.page(page(1, 4, ['a', 'b']));
    expect(() => changed.page(page(2, 3, ['c']))).toThrow(
      expect.objectContaining({ code: 'total_changed', page: 2, expected: 4, found: 3 }),
    );

    const twice = new WalkCheck();
    twice.page(page(1, 4, ['a', 'b']));
    expect(() => twice.page(page(2, 4, ['b', 'c']))).toThrow(
      expect.objectContaining({ code: 'repeated_id', id: 'b', page: 2 }),
    );

    const short = new WalkCheck();
    short.page(page(1, 4, ['a', 'b']));
    expect(() => short.end()).toThrow(
      expect.objectContaining({ code: 'count_mismatch', expected: 4, found: 2 }),
    );
  });

  it('does not hold a walk from a later page to the total', () => {
    const check = new WalkCheck({ whole: false });
    check.page(page(3, 40, ['x']));
    expect(() => check.end()).not.toThrow();
  });

  it('turns a page out of range into page_gone, and leaves other errors as they are', () => {
    const check = new WalkCheck();
    check.page(page(1, 20, ['a']));
    const outOfRange = new BadRequestError({
      status: 400,
      message: '400 Page number out of range',
      method: 'GET',
      url: 'http://x/contacts?page=2',
    });
    expect(check.gone(2, outOfRange)).toMatchObject({ code: 'page_gone', page: 2, expected: 20 });
    const other = new Error('reset');
    expect(check.gone(2, other)).toBe(other);
  });
});

describe('walkUntilConsistent', () => {
  it('throws any other error at once, without another walk', async () => {
    let walks = 0;
    const failure = new Error('network down');
    await expect(
      walkUntilConsistent(async () => {
        walks++;
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(walks).toBe(1);
  });

  it('makes as many walks as asked, then throws the last finding with their count', async () => {
    let walks = 0;
    const error = await walkUntilConsistent(
      async () => {
        walks++;
        throw new InconsistentListError({ code: 'repeated_id', page: walks, expected: 9, id: `x${walks}` });
      },
      { attempts: 2 },
    ).catch((e: unknown) => e);
    expect(walks).toBe(2);
    expect(error).toMatchObject({ code: 'repeated_id', page: 2, id: 'x2', attempts: 2 });
  });

  it('refuses a number of attempts that is not a whole number of at least 1', async () => {
    await expect(walkUntilConsistent(async () => 1, { attempts: 0 })).rejects.toBeInstanceOf(ContactsError);
    await expect(walkUntilConsistent(async () => 1, { attempts: 1.5 })).rejects.toThrow(/whole number/);
  });
});
