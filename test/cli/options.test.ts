// Option value parsers: a bad value is refused where its option is declared, saying what it takes.
import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import {
  collect,
  collectAttr,
  collectList,
  collectStripeAccount,
  decimal,
  integer,
} from '../../src/cli/options.js';

describe('integer and decimal', () => {
  it('integer takes whole numbers in range, saying the range otherwise', () => {
    const batch = integer(1, 1000);
    expect(batch(' 250 ')).toBe(250);
    expect(() => batch('0')).toThrow('Must be 1 to 1000.');
    expect(() => batch('2.5')).toThrow('Not a whole number.');
    expect(() => batch('-3')).toThrow(InvalidArgumentError);
    expect(() => integer(1)('0')).toThrow('Must be at least 1.');
  });

  it('decimal takes finite numbers in range', () => {
    const rate = decimal(0, 1);
    expect(rate('0.25')).toBe(0.25);
    expect(() => rate('1.5')).toThrow('Must be 0 to 1.');
    expect(() => rate('')).toThrow('Not a number.');
    expect(() => rate('Infinity')).toThrow('Not a number.');
  });
});

describe('--attr', () => {
  it('collects text (k=v) and raw JSON (k:=json) by name, the last one winning', () => {
    let attrs = collectAttr('plan=pro');
    attrs = collectAttr('seats:=3', attrs);
    attrs = collectAttr('note=a=b', attrs);
    attrs = collectAttr('plan=team', attrs);
    expect(attrs).toEqual({ plan: { text: 'team' }, seats: { json: 3 }, note: { text: 'a=b' } });
  });

  it('refuses a missing key, bad JSON, and a number JSON cannot carry', () => {
    expect(() => collectAttr('=x')).toThrow(/Expected key=value/);
    expect(() => collectAttr('novalue')).toThrow(/Expected key=value/);
    expect(() => collectAttr('seats:=three')).toThrow(
      'seats:= takes JSON, e.g. --attr seats:=3 or --attr vip:=true.',
    );
    expect(() => collectAttr('n:=1e400')).toThrow(/^n:=1e400: /);
  });

  it('keeps __proto__ as a name like any other', () => {
    const attrs = collectAttr('__proto__=x');
    expect(Object.keys(attrs)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(attrs)).toBe(Object.prototype);
  });
});

describe('--stripe-account', () => {
  it('reads label, id and email into an account, one per flag', () => {
    const accounts = collectStripeAccount(
      'label=backup,email=b@x.co',
      collectStripeAccount('label=main, id=cus_1'),
    );
    expect(accounts).toEqual([
      { label: 'main', stripe_id: 'cus_1' },
      { label: 'backup', stripe_email: 'b@x.co' },
    ]);
  });

  it('refuses unknown parts and an account without a label', () => {
    expect(() => collectStripeAccount('label=x,customer=cus_1')).toThrow(/Expected label=NAME/);
    expect(() => collectStripeAccount('id=cus_1')).toThrow(
      'Each Stripe account needs a label, e.g. label=main,id=cus_123.',
    );
  });
});

describe('repeatable lists', () => {
  it('collectList splits commas and joins repeats; collect keeps each value whole', () => {
    expect(collectList('c', collectList('a, b,'))).toEqual(['a', 'b', 'c']);
    expect(() => collectList(' , ')).toThrow(/one or more/);
    expect(collect('b,c', collect('a'))).toEqual(['a', 'b,c']);
  });
});
