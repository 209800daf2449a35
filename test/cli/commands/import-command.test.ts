// `contacts import`'s declaration: its help states the defaults and limits the importer applies,
// read from the same constants, and its flags refuse what runImport() would.
import { describe, expect, it } from 'vitest';
import { MAX_BATCH_SIZE } from '../../../src/api/limits.js';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from '../../../src/bulk/defaults.js';
import { DEFAULT_BATCH_SIZE } from '../../../src/importer/defaults.js';
import { RECORDS_KEPT } from '../../../src/undo/defaults.js';
import { runInProcess } from '../../helpers/cli.js';

/** Help as one line per paragraph: commander wraps at 80 columns. */
const help = async (argv: string[]) => (await runInProcess([...argv, '--help'])).stdout.replace(/\s+/g, ' ');

describe('contacts import --help', () => {
  it('states the defaults the importer applies', async () => {
    const text = await help(['import']);
    expect(text).toContain(`requests in flight at most (default ${DEFAULT_CONCURRENCY})`);
    expect(text).toContain(
      `(1 to ${MAX_BATCH_SIZE}; default ${DEFAULT_BATCH_SIZE}, under the 1 MiB body limit)`,
    );
    expect(text).toContain(`for the last ${RECORDS_KEPT} imports of each agent`);
  });

  it('refuses a concurrency or batch size past the limits the help states', async () => {
    for (const argv of [
      ['--concurrency', String(MAX_CONCURRENCY + 1)],
      ['--batch-size', String(MAX_BATCH_SIZE + 1)],
      ['--date-order', 'ymd'],
    ]) {
      const r = await runInProcess(['import', 'x.csv', ...argv]);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toContain(`option '${argv[0]}`);
    }
  });
});
