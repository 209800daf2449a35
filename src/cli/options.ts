// Option value parsers: each value is checked where its option is declared (commander's
// InvalidArgumentError), so commands receive typed, valid values.
import { InvalidArgumentError } from 'commander';

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

/** `--attr plan=pro` (repeatable): collected into an object; values stay strings, the service coerces them by type. */
export function collectAttr(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const eq = value.indexOf('=');
  if (eq < 1) throw new InvalidArgumentError('Expected key=value, e.g. --attr plan=pro.');
  return { ...previous, [value.slice(0, eq).trim()]: value.slice(eq + 1) };
}

/** A repeatable option collected into an array. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
