// runImport() checks its options as `contacts import` checks its flags, before it opens, reads or
// sends anything: a library caller gets an InvalidOptionError naming the option, not a failure
// half way.
import { describe, expect, it } from 'vitest';
import { MAX_BATCH_SIZE } from '../../src/api/limits.js';
import { MAX_CONCURRENCY } from '../../src/bulk/defaults.js';
import type { ContactsClient } from '../../src/client/client.js';
import { InvalidOptionError } from '../../src/core/options.js';
import { runImport } from '../../src/import.js';
import { checkImportOptions } from '../../src/importer/options.js';

/** A client that must never be used: any call is recorded, and fails. */
function untouchable() {
  const calls: string[] = [];
  const client = new Proxy(
    {},
    {
      get: (_, name) => {
        calls.push(String(name));
        throw new Error(`client.${String(name)} used`);
      },
    },
  ) as ContactsClient;
  return { client, calls };
}

const base = { agentId: 'a1', input: '/nonexistent/contacts.csv' };

describe('checkImportOptions', () => {
  it.each([
    [{ batchSize: 0 }, 'batchSize', 'out_of_range'],
    [{ batchSize: MAX_BATCH_SIZE + 1 }, 'batchSize', 'out_of_range'],
    [{ concurrency: MAX_CONCURRENCY + 1 }, 'concurrency', 'out_of_range'],
    [{ concurrency: '8' }, 'concurrency', 'invalid_type'],
    [{ maxRetries: -1 }, 'maxRetries', 'out_of_range'],
    [{ format: 'xls' }, 'format', 'invalid_value'],
    [{ delimiter: '|' }, 'delimiter', 'invalid_value'],
    [{ dateOrder: 'ymd' }, 'dateOrder', 'invalid_value'],
    [{ undo: 'yes' }, 'undo', 'invalid_value'],
    [{ defaultCountry: 'United Kingdom' }, 'defaultCountry', 'invalid_value'],
    // Two letters, but no country's: every national number would fail.
    [{ defaultCountry: 'XX' }, 'defaultCountry', 'invalid_value'],
    // A misspelt option would do nothing unseen.
    [{ batchsize: 500 }, 'batchsize', 'unknown'],
    [{ resume: true, restart: true }, 'resume', 'conflict'],
    [{ signal: 'stop' }, 'signal', 'invalid_type'],
    [{ agentId: '' }, 'agentId', 'invalid_value'],
    [{ input: undefined }, 'input', 'missing'],
  ])('%o: %s is %s', (given, param, code) => {
    const { client } = untouchable();
    expect(() => checkImportOptions({ client, ...base, ...given })).toThrow(
      expect.objectContaining({ name: 'InvalidOptionError', param, code }),
    );
  });

  it('names the option a misspelt one was meant to be', () => {
    const { client } = untouchable();
    expect(() => checkImportOptions({ client, ...base, batchsize: 500 })).toThrow(
      'runImport(): takes no option batchsize (did you mean batchSize?)',
    );
    expect(() => checkImportOptions({ client, ...base, rejects: 'r.csv' })).toThrow(
      'runImport(): takes no option rejects (did you mean rejectsPath?)',
    );
  });

  it('takes what contacts import passes', () => {
    const { client } = untouchable();
    expect(() =>
      checkImportOptions({
        client,
        ...base,
        format: 'csv',
        delimiter: '\t',
        defaultCountry: 'gb',
        batchSize: MAX_BATCH_SIZE,
        concurrency: 1,
        maxRetries: 0,
        dateOrder: 'dmy',
        undo: 'off',
        resume: true,
        restart: false,
        signal: new AbortController().signal,
        onEvent: () => {},
      }),
    ).not.toThrow();
  });
});

describe('runImport', () => {
  it('refuses an option it cannot take before it touches the client or the file', async () => {
    const { client, calls } = untouchable();
    const error = await runImport({ client, ...base, batchSize: 5000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect(error).toMatchObject({
      param: 'batchSize',
      message: `runImport(): batchSize must be a whole number from 1 to ${MAX_BATCH_SIZE}, not 5000`,
    });
    expect(calls).toEqual([]);
  });
});
