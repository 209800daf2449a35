// The importer's codes in the CLI's words: each note, error and row problem said with the flag
// that changes it, as `contacts import` said them when the importer worded them itself.
import { describe, expect, it } from 'vitest';
import { toExit } from '../../../src/cli/exit.js';
import { ExitCode } from '../../../src/cli/exit-codes.js';
import {
  checkpointRefusal,
  importErrorText,
  mismatchText,
  noteText,
  problemHints,
} from '../../../src/cli/output/import-words.js';
import {
  CheckpointMismatchError,
  ImportError,
  MappingError,
  SourceParseError,
} from '../../../src/importer/errors.js';
import { nearlyRecognised } from '../../../src/importer/exports.js';
import { isGenericHeader, resolveMapping } from '../../../src/importer/mapping.js';
import type { ImportNote } from '../../../src/importer/notes.js';
import { localTimesNote } from '../../../src/importer/notes.js';

const thrown = (f: () => unknown): ImportError => {
  try {
    f();
  } catch (error) {
    return error as ImportError;
  }
  throw new Error('did not throw');
};

describe('notes', () => {
  it('name the flag that overrides what the import decided', () => {
    const cases: [ImportNote, string][] = [
      [
        {
          code: 'encoding_guessed',
          message: 'a.csv is not UTF-8: reading it as Windows-1252',
          file: 'a.csv',
          encoding: 'windows-1252',
        },
        'a.csv is not UTF-8: reading it as Windows-1252 (--encoding overrides)',
      ],
      [
        localTimesNote('Created', '2024-03-22 17:59'),
        'Column "Created" has date-times without a zone (2024-03-22 17:59): they are read as UTC. ' +
          'If the export wrote them in another zone, pass it, e.g. --time-zone America/New_York.',
      ],
      [
        {
          code: 'date_order_decided',
          message: 'Column "Joined" ... so the whole column is read so',
          column: 'Joined',
          order: 'dmy',
        },
        'Column "Joined" ... so the whole column is read so (--date-order chooses otherwise)',
      ],
      [
        {
          code: 'time_zone_not_applied',
          message:
            'The time zone America/New_York is not applied: this file is read as an export of this tool, whose date-times are UTC',
          timeZone: 'America/New_York',
          reason: 'this file is read as an export of this tool, whose date-times are UTC',
        },
        '--time-zone America/New_York is not applied: this file is read as an export of this tool, whose date-times are UTC',
      ],
      [
        {
          code: 'resume_nothing',
          message: 'No unfinished import',
          input: 'a.csv',
          checkpoint: 'a.csv.import-checkpoint.json',
        },
        '--resume: no unfinished import of a.csv to resume (no a.csv.import-checkpoint.json): importing every row',
      ],
      [
        {
          code: 'resume_service_unrecorded',
          message: 'The checkpoint',
          checkpoint: 'c.json',
          service: 'mock:/d/m.db',
        },
        '--resume: the checkpoint c.json does not say which service the run resumed imported into (an earlier ' +
          "version wrote it): taken to be this run's, the embedded mock (/d/m.db)",
      ],
      [
        {
          code: 'resume_output_moved',
          message: 'The run resumed',
          output: 'results',
          was: '/a/r.csv',
          path: '/b/r.csv',
        },
        '--resume: the run resumed wrote its results to /a/r.csv; this run writes its own to /b/r.csv',
      ],
      [
        { code: 'resume_output_short', message: 'The fixes file', output: 'fixes', path: '/b/f.csv' },
        '--resume: the fixes file /b/f.csv holds less than the run resumed wrote to it (moved or cut since): ' +
          'records of that run are missing from it',
      ],
      [
        {
          code: 'undo_created_only',
          message: 'Recording only the contacts this import creates (...): why.',
          reason: 'why',
        },
        'Recording only the contacts this import creates (...): why. --undoable records those too.',
      ],
      [
        { code: 'undo_resumed_without_record', message: 'The run resumed kept no undo record' },
        'The run resumed kept no undo record (imported with --no-undo, or its record is gone): contacts undo ' +
          'takes back only what this run writes',
      ],
      [
        { code: 'rows_skipped', message: 'line 3 repeats the header row: skipped' },
        'line 3 repeats the header row: skipped',
      ],
    ];
    for (const [note, text] of cases) expect(noteText(note), note.code).toBe(text);
  });

  it('point a near miss of a known export at --map, as the importer finds it', () => {
    const near = nearlyRecognised(['User ID', 'Email', 'Web sessions'], isGenericHeader);
    expect(near?.code).toBe('export_nearly_recognised');
    expect(near?.message).not.toContain('--');
    expect(noteText(near!)).toMatch(
      /^The header looks like an Intercom users export but has no "Unsubscribed from Emails" column, so it is read by the generic column names: check the Columns line, or use --map \(docs\/import\.md lists what each export is recognised by\)$/,
    );
  });
});

describe('errors', () => {
  it('say the flag that is the way on', () => {
    const cases: [ImportError, string][] = [
      [
        new ImportError('stdin cannot be resumed: import from a file to resume', {
          detail: { code: 'not_resumable', input: '-', kind: 'stdin' },
        }),
        'stdin cannot be resumed: import from a file to use --resume',
      ],
      [
        new ImportError(
          'dates.csv: column "Joined" has dates like 3/4/2024 that read both as M/D/YYYY and D/M/YYYY, and no date in it decides which',
          {
            detail: {
              code: 'date_order_undecided',
              file: 'dates.csv',
              column: 'Joined',
              example: '3/4/2024',
            },
          },
        ),
        'dates.csv: column "Joined" has dates like 3/4/2024 that read both as M/D/YYYY and D/M/YYYY, and no date in ' +
          'it decides which: pass --date-order mdy (month first) or --date-order dmy (day first)',
      ],
      [
        new ImportError('Column overrides apply to columns', {
          detail: { code: 'map_not_applicable', format: 'vcard' },
        }),
        '--map applies to columns; a vCard file fills the fields from its own properties',
      ],
      [
        new ImportError('Column overrides apply to CSV', {
          detail: { code: 'map_not_applicable', format: 'ndjson' },
        }),
        "--map applies to columns; these JSON records are in the contract's own shape (an external_id and its fields), read as they are",
      ],
      [
        new ImportError('A sheet applies', {
          detail: { code: 'sheet_not_workbook', file: 'a.csv', format: 'csv' },
        }),
        '--sheet applies to .xlsx workbooks; a.csv is read as csv',
      ],
      [
        new ImportError('not a workbook', { detail: { code: 'not_a_workbook', file: 'a.xlsx' } }),
        'a.xlsx: not a readable .xlsx workbook: it is not a zip archive, as every .xlsx is (is it a CSV with an .xlsx name? then pass --format csv)',
      ],
      [
        new SourceParseError({
          file: 'l.csv',
          line: 3,
          column: 2,
          reason: 'not valid UTF-8 (byte 0xE9); it looks like Windows-1252',
          detail: { code: 'not_utf8', file: 'l.csv', encoding: 'windows-1252', looks: true },
        }),
        'l.csv: line 3, column 2: not valid UTF-8 (byte 0xE9); it looks like Windows-1252: run again with --encoding windows-1252',
      ],
      [
        new SourceParseError({
          file: 'c.vcf',
          line: 4,
          reason: 'FN is not valid UTF-8 and names no CHARSET',
          detail: { code: 'not_utf8', file: 'c.vcf', encoding: 'windows-1252', looks: false },
        }),
        "c.vcf: line 4: FN is not valid UTF-8 and names no CHARSET: run again with --encoding windows-1252 (or the file's encoding)",
      ],
      [
        new ImportError('The results file', { detail: { code: 'results_extension', path: 'out.txt' } }),
        '--results out.txt: name a .csv or .ndjson file (its extension picks the format)',
      ],
      [
        new ImportError('taken back', {
          detail: { code: 'resume_undone', undoneAt: '2025-01-15T10:00:00.000Z' },
        }),
        'The import this run would resume was taken back by contacts undo (2025-01-15T10:00:00.000Z): its rows are ' +
          'not in the directory any more. Import the file again with --restart',
      ],
      [
        new ImportError('Cannot keep', {
          detail: { code: 'undo_dir_unwritable', dir: '/d/undo/a1', reason: 'EACCES' },
        }),
        "Cannot keep this import's undo record in /d/undo/a1: EACCES. Set CONTACTS_DATA_DIR to a directory you can write, or import with --no-undo",
      ],
      [new ImportError('Unknown format "x"'), 'Unknown format "x"'],
    ];
    for (const [error, text] of cases) expect(importErrorText(error), error.code).toBe(text);
    // delete --from and template --from read a file without import's --format and --encoding.
    const withCode = (code: string) => cases.find(([e]) => e.detail?.code === code)![0];
    const [workbook, utf8] = [withCode('not_a_workbook'), withCode('not_utf8')];
    expect(importErrorText(workbook, false)).toBe(
      'a.xlsx: not a readable .xlsx workbook: it is not a zip archive, as every .xlsx is (is it a CSV with an .xlsx name? then name it .csv)',
    );
    expect(importErrorText(utf8, false)).toBe(
      'l.csv: line 3, column 2: not valid UTF-8 (byte 0xE9); it looks like Windows-1252: save it as UTF-8 and run again',
    );
  });

  it('word the mapping refusals resolveMapping gives with --map', () => {
    const map = (header: string[], overrides: [string, string][] = []) =>
      resolveMapping({
        header,
        definitions: [{ name: 'plan', type: 'text', label: 'Plan', description: null, archived: false }],
        overrides: overrides.map(([h, field]) => ({
          header: h,
          targets: [{ kind: 'field', field: field as 'name' }],
        })),
      });
    expect(importErrorText(thrown(() => map(['Name', 'Notes'])))).toBe(
      'No column maps to external_id, and no email column can stand in for it (columns: Name, Notes). ' +
        'Name one with --map "<column>=external_id" (a column can fill two fields: --map "Email=external_id,email").',
    );
    expect(importErrorText(thrown(() => map(['external_id', 'Email'], [['Mail Addr', 'email']])))).toBe(
      '--map "Mail Addr=...": the file has no column "Mail Addr" (columns: external_id, Email)',
    );
    expect(
      importErrorText(
        thrown(() =>
          map(
            ['external_id', 'A', 'B'],
            [
              ['A', 'name'],
              ['B', 'name'],
            ],
          ),
        ),
      ),
    ).toBe('--map: two columns map to name; keep one of them');
    const attribute = thrown(() =>
      resolveMapping({
        header: ['external_id', 'X'],
        definitions: [],
        overrides: [{ header: 'X', targets: [{ kind: 'attribute', name: 'nope' }] }],
      }),
    );
    expect(attribute).toBeInstanceOf(MappingError);
    expect(importErrorText(attribute)).toBe(
      '--map "X=...": custom attribute "nope" is not defined for this agent (defined: none); define it first, or map the column to -',
    );
    // A column's own attr. header names no flag, in either's words.
    const column = thrown(() => resolveMapping({ header: ['external_id', 'attr.nope'], definitions: [] }));
    expect(importErrorText(column)).toBe(column.message);
    expect(column.message).toMatch(/^Column "attr.nope": custom attribute "nope" is not defined/);
  });
});

describe('a resume its checkpoint refuses', () => {
  it('says how to resume as the run resumed did, by flag', () => {
    expect(
      mismatchText({ code: 'service', reason: 'R', was: 'https://a.example', now: 'https://b.example' }),
    ).toBe('R: resume with --base-url https://a.example');
    expect(
      mismatchText({ code: 'service', reason: 'R', was: 'mock:/d/mock.db', now: 'https://a.example' }),
    ).toBe('R: resume with --mock and CONTACTS_MOCK_DATA=/d/mock.db');
    expect(
      mismatchText({ code: 'service', reason: 'R', was: 'mock:/d/mock.db', now: 'mock:/e/other.db' }),
    ).toBe('R: resume with CONTACTS_MOCK_DATA=/d/mock.db');
    expect(mismatchText({ code: 'time_zone', reason: 'R', was: 'America/New_York', now: 'UTC' })).toBe(
      'R: resume with --time-zone America/New_York',
    );
    expect(
      mismatchText({ code: 'option', option: 'defaultCountry', reason: 'R', was: 'GB', now: 'US' }),
    ).toBe('the run resumed had --default-country GB, this run has US: resume with --default-country GB');
    expect(
      mismatchText({ code: 'option', option: 'defaultCountry', reason: 'R', was: 'GB', now: null }),
    ).toBe('the run resumed had --default-country GB, this run none: resume with --default-country GB');
    expect(mismatchText({ code: 'option', option: 'dateOrder', reason: 'R', was: null, now: 'dmy' })).toBe(
      'the run resumed had no --date-order, this run has dmy: resume without --date-order',
    );
    expect(mismatchText({ code: 'size', reason: "the file's size changed", was: 1, now: 2 })).toBe(
      "the file's size changed",
    );
  });

  it('is a usage error with the way on that starts over', () => {
    const error = new CheckpointMismatchError('/d/a.csv.import-checkpoint.json', [
      { code: 'agent', reason: 'it was written for agent "a1", not "a2"', was: 'a1', now: 'a2' },
      {
        code: 'time_zone',
        reason: 'the run resumed read date-times without a zone as UTC, this run as Asia/Kolkata',
        was: 'UTC',
        now: 'Asia/Kolkata',
      },
    ]);
    expect(toExit(checkpointRefusal(error))).toEqual({
      code: ExitCode.USAGE,
      lines: [
        'error: The checkpoint /d/a.csv.import-checkpoint.json cannot be resumed by this run (it was written for agent "a1", not "a2"; ' +
          'the run resumed read date-times without a zone as UTC, this run as Asia/Kolkata: resume with --time-zone UTC)',
        'hint: To start over from the first row instead, run the same command with --restart in place of --resume (the checkpoint is discarded).',
      ],
    });
  });
});

describe('row problems', () => {
  it('hint at the flag that reads them, once however many kinds need it', () => {
    expect(problemHints(['phone_no_country', 'phone_ambiguous', 'date_order_open'])).toEqual([
      'To read national phone numbers in one country, pass --default-country with its ISO code (e.g. --default-country US).',
      'To read slash dates that read both ways, pass --date-order mdy (month first) or --date-order dmy (day first).',
    ]);
    expect(problemHints([])).toEqual([]);
  });
});
