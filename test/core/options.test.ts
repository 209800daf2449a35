// A library entry point's options, checked before it does anything: each problem an
// InvalidOptionError naming the option (`param`) and the kind of problem (`code`).
import { describe, expect, it } from 'vitest';
import { ContactsError } from '../../src/core/error.js';
import { checkOptions, InvalidOptionError } from '../../src/core/options.js';

const failure = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error as InvalidOptionError;
  }
  throw new Error('expected an InvalidOptionError');
};

describe('checkOptions', () => {
  it('passes what it is given right, and anything absent that is not required', () => {
    expect(() =>
      checkOptions('f()', { n: 3, s: 'x', b: false, c: 'a', fn: () => {}, list: [] })
        .integer('n', 1, 10)
        .integer('absent', 1, 10)
        .string('s', { required: true })
        .boolean('b', 'absent')
        .oneOf('c', ['a', 'b'])
        .function('fn')
        .array('list')
        .signal()
        .notBoth('b', 's'),
    ).not.toThrow();
  });

  it('names the entry point, the option and the problem', () => {
    const e = failure(() => checkOptions('runImport()', { batchSize: 0 }).integer('batchSize', 1, 1000));
    expect(e).toBeInstanceOf(InvalidOptionError);
    expect(e).toBeInstanceOf(ContactsError);
    expect(e).toMatchObject({
      name: 'InvalidOptionError',
      code: 'out_of_range',
      param: 'batchSize',
      message: 'runImport(): batchSize must be a whole number from 1 to 1000, not 0',
    });
  });

  it('tells a missing option, a wrong type, a wrong value and a conflict apart', () => {
    const of = (options: unknown, check: (c: ReturnType<typeof checkOptions>) => unknown) =>
      failure(() => check(checkOptions('f()', options)));
    expect(of({}, (c) => c.object('client', 'a ContactsClient', true))).toMatchObject({
      code: 'missing',
      param: 'client',
      message: 'f(): client is required',
    });
    expect(of({ n: '8' }, (c) => c.integer('n', 1, 10))).toMatchObject({ code: 'invalid_type' });
    expect(of({ n: 2.5 }, (c) => c.integer('n', 1))).toMatchObject({
      code: 'out_of_range',
      message: 'f(): n must be a whole number, 1 or more, not 2.5',
    });
    expect(of({ n: Number.NaN }, (c) => c.integer('n', 0))).toMatchObject({ code: 'out_of_range' });
    expect(of({ c: 'CSV' }, (c) => c.oneOf('c', ['csv', 'json']))).toMatchObject({
      code: 'invalid_value',
      message: 'f(): c must be one of "csv" or "json", not "CSV"',
    });
    expect(of({ s: '  ' }, (c) => c.string('s', { required: true }))).toMatchObject({
      code: 'invalid_value',
    });
    expect(of({ a: true, b: 'x' }, (c) => c.notBoth('a', 'b'))).toMatchObject({
      code: 'conflict',
      param: 'a',
      message: 'f(): a and b cannot be given together',
    });
    expect(of({ signal: {} }, (c) => c.signal())).toMatchObject({ code: 'invalid_type', param: 'signal' });
    expect(of('input.csv', () => undefined)).toMatchObject({ code: 'invalid_type', param: 'options' });
  });

  it('never quotes a secret', () => {
    const e = failure(() => checkOptions('f()', { apiKey: 42 }).string('apiKey', { secret: true }));
    expect(e.message).toBe('f(): apiKey must be a string, not 42');
    const key = failure(() =>
      checkOptions('f()', { apiKey: ' ' }).string('apiKey', { secret: true, nonEmpty: true }),
    );
    expect(key.message).toBe('f(): apiKey must be a non-empty string, not a string of 1 character');
  });
});
