// The look-ahead: a table's first rows held until what they say of the file is known.
import { describe, expect, it } from 'vitest';
import { ImportError } from '../../../src/importer/errors.js';
import { FileEvidence } from '../../../src/importer/file-evidence.js';
import { resolveMapping } from '../../../src/importer/mapping.js';
import type { EvidenceNote } from '../../../src/importer/notes.js';
import type { SourceRecord } from '../../../src/importer/sources/types.js';
import { LookAhead } from '../../../src/importer/stages/look-ahead.js';
import { SAMPLE_ROWS } from '../../../src/importer/stages/source.js';
import { DEFINITIONS } from '../helpers.js';

const mapping = resolveMapping({ header: ['User ID', 'Signup Date'], definitions: DEFINITIONS });
const row = (n: number, date: string): SourceRecord => ({
  row: n,
  line: n + 1,
  record: {},
  raw: [`u${n}`, date],
});

function lookAhead(options: { watchLocalTimes?: boolean } = {}) {
  const notes: EvidenceNote[] = [];
  const evidence = new FileEvidence(mapping, DEFINITIONS, options);
  return { ahead: new LookAhead(evidence, 'dates.csv', (note) => notes.push(note)), notes };
}

describe('LookAhead', () => {
  it('holds the first rows, and gives them back in order with what they decided', () => {
    const { ahead, notes } = lookAhead();
    const held = [row(1, '3/4/2024'), row(2, '31/12/2024'), row(3, '5/6/2024')];
    for (const r of held) expect(ahead.hold(r)).toBe(true);
    expect(ahead.looking).toBe(true);
    expect(ahead.release()).toEqual(held);
    expect(ahead.looking).toBe(false);
    expect(notes).toMatchObject([{ code: 'date_order_decided', column: 'Signup Date', order: 'dmy' }]);
  });

  it('reads on past the first rows while a date column is open, and stops on one no row decides', () => {
    const { ahead } = lookAhead();
    for (let n = 1; n <= SAMPLE_ROWS; n++) expect(ahead.hold(row(n, '3/4/2024'))).toBe(true);
    const error = (() => {
      try {
        ahead.release();
      } catch (e) {
        return e as ImportError;
      }
    })();
    expect(error).toBeInstanceOf(ImportError);
    expect(error?.detail).toEqual({
      code: 'date_order_undecided',
      file: 'dates.csv',
      column: 'Signup Date',
      example: '3/4/2024',
    });
    expect(ahead.undecided).toBe(true);
  });

  it('stops holding at its first rows once every date column is decided', () => {
    const { ahead } = lookAhead();
    for (let n = 1; n < SAMPLE_ROWS; n++) expect(ahead.hold(row(n, '31/12/2024'))).toBe(true);
    expect(ahead.hold(row(SAMPLE_ROWS, '31/12/2024'))).toBe(false);
  });

  it('lets the rows read go on as they are when the input failed (no date order asked for)', () => {
    const { ahead } = lookAhead();
    ahead.hold(row(1, '3/4/2024'));
    expect(ahead.release(false)).toHaveLength(1);
  });

  it('tells of the first date-time without a zone it holds, once', () => {
    const { ahead, notes } = lookAhead({ watchLocalTimes: true });
    ahead.hold(row(1, '2024-03-22'));
    ahead.hold(row(2, '2024-03-22 17:59'));
    ahead.hold(row(3, '2024-03-23 09:00'));
    expect(notes).toMatchObject([
      { code: 'local_times', column: 'Signup Date', example: '2024-03-22 17:59' },
    ]);
  });
});
