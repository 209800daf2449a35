// Option value parsers: each value is checked where its option is declared (commander's
// InvalidArgumentError), so commands receive typed, valid values.
import { InvalidArgumentError } from 'commander';
import { jsonNumberProblem } from '../api/json-numbers.js';

export function integer(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    if (!/^\d+$/.test(value.trim())) throw new InvalidArgumentError('Not a whole number.');
    const n = Number(value);
    if (n < min || n > max) {
      throw new InvalidArgumentError(
        max === Number.MAX_SAFE_INTEGER ? `Must be at least ${min}.` : `Must be ${min} to ${max}.`,
      );
    }
    return n;
  };
}

export function decimal(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n)) throw new InvalidArgumentError('Not a number.');
    if (n < min || n > max) throw new InvalidArgumentError(`Must be ${min} to ${max}.`);
    return n;
  };
}

/**
 * One `--attr`: `plan=pro` is text, converted to the attribute's type before sending (the
 * service takes JSON numbers only for a number attribute); `seats:=3` is raw JSON, sent as is.
 */
export type AttrValue = { text: string } | { json: unknown };

/** `--attr plan=pro` or `--attr seats:=3` (repeatable), collected by attribute name. */
export function collectAttr(
  value: string,
  previous: Record<string, AttrValue> = {},
): Record<string, AttrValue> {
  const eq = value.indexOf('=');
  if (eq < 1) throw new InvalidArgumentError('Expected key=value (or key:=json), e.g. --attr plan=pro.');
  const raw = value[eq - 1] === ':';
  const key = value.slice(0, raw ? eq - 1 : eq).trim();
  const text = value.slice(eq + 1);
  if (!key) throw new InvalidArgumentError('Expected key=value (or key:=json), e.g. --attr plan=pro.');
  let parsed: AttrValue = { text };
  if (raw) {
    try {
      parsed = { json: JSON.parse(text) };
    } catch {
      throw new InvalidArgumentError(`${key}:= takes JSON, e.g. --attr seats:=3 or --attr vip:=true.`);
    }
    const problem = jsonNumberProblem(text);
    if (problem) throw new InvalidArgumentError(`${key}:=${text.trim()}: ${problem.reason}.`);
  }
  // Defined, not assigned: `__proto__` is a name like any other.
  return Object.defineProperty({ ...previous }, key, {
    value: parsed,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/**
 * `--stripe-account label=main,id=cus_123[,email=billing@example.com]` (repeatable): one Stripe
 * account; the list replaces the stored one as a whole.
 */
export function collectStripeAccount(
  value: string,
  previous: Record<string, string>[] = [],
): Record<string, string>[] {
  const account: Record<string, string> = {};
  const names: Record<string, string> = { label: 'label', id: 'stripe_id', email: 'stripe_email' };
  for (const part of value.split(',')) {
    const eq = part.indexOf('=');
    const key = names[part.slice(0, eq).trim()];
    if (eq < 1 || !key) {
      throw new InvalidArgumentError(
        'Expected label=NAME,id=cus_... and/or email=ADDRESS, e.g. label=main,id=cus_123.',
      );
    }
    account[key] = part.slice(eq + 1).trim();
  }
  if (!account.label)
    throw new InvalidArgumentError('Each Stripe account needs a label, e.g. label=main,id=cus_123.');
  return [...previous, account];
}

/** A repeatable option of comma-separated values (`--agents a,b --agents c`), collected into one array. */
export function collectList(value: string, previous: string[] = []): string[] {
  const items = value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  if (items.length === 0) throw new InvalidArgumentError('Expected one or more comma-separated values.');
  return [...previous, ...items];
}

/** A repeatable option collected into an array. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
