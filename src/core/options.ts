// The options a library entry point is given (`new ContactsClient()`, `runImport()`,
// `undoImport()`, `runTeardown()`), checked before anything is opened or sent: a value it cannot
// take is an InvalidOptionError naming the option (`param`) and what is wrong with it (`code`), as
// openai's errors carry `param` and `code`. The CLI checks its flags itself and words its own errors.
import { ContactsError } from './error.js';

/**
 * - `missing`: a required option was not given;
 * - `invalid_type`: not the kind of value the option takes (a string for a number);
 * - `out_of_range`: a number outside the option's bounds, or not whole where it must be;
 * - `invalid_value`: not one of the values the option takes, or not in the form it takes;
 * - `conflict`: two options that cannot be given together.
 */
export type InvalidOptionCode =
  | 'missing'
  | 'invalid_type'
  | 'out_of_range'
  | 'invalid_value'
  | 'conflict'
  /** An option the entry point does not take (a misspelt one: `batchsize`). */
  | 'unknown';

/** An option a library entry point cannot take; nothing was opened, read or sent. */
export class InvalidOptionError extends ContactsError {
  readonly code: InvalidOptionCode;
  /** The option as the entry point names it (`batchSize`); the first of two for `conflict`. */
  readonly param: string;
  constructor(message: string, init: { code: InvalidOptionCode; param: string }) {
    super(message);
    this.code = init.code;
    this.param = init.param;
  }
}

/** A value as an error quotes it: short, and never a secret's text. */
function shown(value: unknown, secret: boolean): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') {
    if (secret) return `a string of ${value.length} character${value.length === 1 ? '' : 's'}`;
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value === 'function'
    ? 'a function'
    : `${typeof value === 'object' ? 'an' : 'a'} ${typeof value}`;
}

/**
 * Checks one entry point's options, one option at a time; each check passes an absent option
 * (`undefined`) unless it is `required`. `entry` names the entry point in messages: `runImport()`.
 */
export class OptionChecks {
  readonly #entry: string;
  readonly #options: Record<string, unknown>;
  /** Every option a check has named. */
  readonly #named = new Set<string>();

  constructor(entry: string, options: unknown) {
    this.#entry = entry;
    if (typeof options !== 'object' || options === null || Array.isArray(options)) {
      throw new InvalidOptionError(`${entry} takes an object of options, not ${shown(options, false)}`, {
        code: 'invalid_type',
        param: 'options',
      });
    }
    this.#options = options as Record<string, unknown>;
  }

  #fail(param: string, code: InvalidOptionCode, what: string, secret = false): never {
    const value = this.#options[param];
    const given = code === 'missing' ? 'is required' : `must be ${what}, not ${shown(value, secret)}`;
    throw new InvalidOptionError(`${this.#entry}: ${param} ${given}`, { code, param });
  }

  #present(param: string, required: boolean): boolean {
    this.#named.add(param);
    if (this.#options[param] !== undefined) return true;
    if (required) this.#fail(param, 'missing', '');
    return false;
  }

  /** A required option that is an object (a client, a stream): its kind is the caller's to know. */
  object(param: string, what: string, required = false): this {
    if (!this.#present(param, required)) return this;
    const value = this.#options[param];
    if (typeof value !== 'object' || value === null) this.#fail(param, 'invalid_type', what);
    return this;
  }

  /** A string; a required one (or `nonEmpty`) holds more than blanks. */
  string(param: string, opts: { required?: boolean; nonEmpty?: boolean; secret?: boolean } = {}): this {
    if (!this.#present(param, opts.required ?? false)) return this;
    const value = this.#options[param];
    if (typeof value !== 'string') this.#fail(param, 'invalid_type', 'a string', opts.secret);
    if ((opts.nonEmpty ?? opts.required) && value.trim() === '')
      this.#fail(param, 'invalid_value', 'a non-empty string', opts.secret);
    return this;
  }

  /** A string matching `pattern`, e.g. a two-letter country code. */
  matching(param: string, pattern: RegExp, what: string): this {
    if (!this.#present(param, false)) return this;
    const value = this.#options[param];
    if (typeof value !== 'string') this.#fail(param, 'invalid_type', what);
    if (!pattern.test(value)) this.#fail(param, 'invalid_value', what);
    return this;
  }

  /** A whole number from `min` to `max` (no bound above without one). */
  integer(param: string, min: number, max = Number.MAX_SAFE_INTEGER, required = false): this {
    if (!this.#present(param, required)) return this;
    const value = this.#options[param];
    const what =
      max === Number.MAX_SAFE_INTEGER
        ? `a whole number, ${min} or more`
        : `a whole number from ${min} to ${max}`;
    if (typeof value !== 'number') this.#fail(param, 'invalid_type', what);
    if (!Number.isInteger(value) || value < min || value > max) this.#fail(param, 'out_of_range', what);
    return this;
  }

  boolean(...params: string[]): this {
    for (const param of params) {
      if (this.#present(param, false) && typeof this.#options[param] !== 'boolean')
        this.#fail(param, 'invalid_type', 'true or false');
    }
    return this;
  }

  oneOf(param: string, choices: readonly string[]): this {
    if (!this.#present(param, false)) return this;
    const value = this.#options[param];
    if (typeof value !== 'string' || !choices.includes(value)) {
      const words = choices.map((c) => JSON.stringify(c));
      this.#fail(param, 'invalid_value', `one of ${words.slice(0, -1).join(', ')} or ${words.at(-1)}`);
    }
    return this;
  }

  function(...params: string[]): this {
    for (const param of params) {
      if (this.#present(param, false) && typeof this.#options[param] !== 'function')
        this.#fail(param, 'invalid_type', 'a function');
    }
    return this;
  }

  array(param: string, required = false): this {
    if (this.#present(param, required) && !Array.isArray(this.#options[param]))
      this.#fail(param, 'invalid_type', 'an array');
    return this;
  }

  signal(param = 'signal'): this {
    if (this.#present(param, false) && !(this.#options[param] instanceof AbortSignal))
      this.#fail(param, 'invalid_type', 'an AbortSignal');
    return this;
  }

  /**
   * Last in a chain: an option no check named is one the entry point does not take, most often
   * a misspelt one that would otherwise do nothing unseen.
   */
  onlyNamed(): this {
    for (const param of Object.keys(this.#options)) {
      if (this.#named.has(param) || this.#options[param] === undefined) continue;
      const lower = param.toLowerCase();
      const near = [...this.#named].find(
        (name) => name.toLowerCase() === lower || name.toLowerCase().startsWith(lower),
      );
      throw new InvalidOptionError(
        `${this.#entry}: takes no option ${param}${near ? ` (did you mean ${near}?)` : ''}`,
        { code: 'unknown', param },
      );
    }
    return this;
  }

  /** `a` and `b` cannot both be set (to anything but undefined or false). */
  notBoth(a: string, b: string): this {
    const set = (param: string) => this.#options[param] !== undefined && this.#options[param] !== false;
    if (set(a) && set(b)) {
      throw new InvalidOptionError(`${this.#entry}: ${a} and ${b} cannot be given together`, {
        code: 'conflict',
        param: a,
      });
    }
    return this;
  }
}

/** The checks of `entry`'s options (`new OptionChecks`), for a chain: `checkOptions('runImport()', o).string(...)`. */
export function checkOptions(entry: string, options: unknown): OptionChecks {
  return new OptionChecks(entry, options);
}
