// What the importer's codes say at the command line. The importer states what happened in its
// own words, with the data it is about and no flag of ours; here its errors, notes and row
// problems are said with the flags that change them (`--date-order`, `--resume`, `--map`...),
// by code, from that data.

import type {
  CheckpointMismatch,
  CheckpointMismatchError,
  ImportError,
  ImportErrorDetail,
} from '../../importer/errors.js';
import { article } from '../../importer/exports.js';
import type { ImportNote } from '../../importer/notes.js';
import type { ProblemCode } from '../../importer/row-validator.js';
import { CHECKPOINT_MISMATCH_HINT, UsageError } from '../errors.js';

/** A note of the import, as a line for stderr. */
export function noteText(note: ImportNote): string {
  switch (note.code) {
    case 'encoding_guessed':
      return `${note.message} (--encoding overrides)`;
    case 'export_nearly_recognised':
      return note.json
        ? note.message
        : `The header looks like ${article(note.export)} ${note.export} but has no "${note.missing}" column, so it is ` +
            'read by the generic column names: check the Columns line, or use --map (docs/import.md lists what ' +
            'each export is recognised by)';
    case 'time_zone_not_applied':
      return `--time-zone ${note.timeZone} is not applied: ${note.reason}`;
    case 'local_times':
      return `${note.message} If the export wrote them in another zone, pass it, e.g. --time-zone America/New_York.`;
    case 'sheets_not_read':
      return `${note.message} (--sheet NAME reads another)`;
    case 'date_order_decided':
      return `${note.message} (--date-order chooses otherwise)`;
    case 'names_reordered':
      return `${note.message} (--map "${note.column}=name" keeps them as written)`;
    case 'decimal_mark_decided':
      return `${note.message} (write the number without thousands separators to choose otherwise)`;
    case 'resume_nothing':
      return `--resume: no unfinished import of ${note.input} to resume (no ${note.checkpoint}): importing every row`;
    case 'resume_service_unrecorded':
      return (
        `--resume: the checkpoint ${note.checkpoint} does not say which service the run resumed imported into ` +
        `(an earlier version wrote it): taken to be this run's, ${serviceWords(note.service)}`
      );
    case 'resume_output_moved':
      return `--resume: the run resumed wrote its ${note.output} to ${note.was}; this run writes its own to ${note.path}`;
    case 'earlier_output_kept':
      return note.message;
    case 'resume_output_short':
      return (
        `--resume: the ${note.output} file ${note.path} holds less than the run resumed wrote to it (moved or cut ` +
        'since): records of that run are missing from it'
      );
    case 'undo_created_only':
      return `${note.message} --undoable records those too.`;
    case 'undo_resumed_without_record':
      return (
        'The run resumed kept no undo record (imported with --no-undo, or its record is gone): contacts undo ' +
        'takes back only what this run writes'
      );
    default:
      return note.message;
  }
}

/** The service as a message names it: the embedded mock by its data file. */
export const serviceWords = (service: string) =>
  service.startsWith('mock:') ? `the embedded mock (${service.slice(5)})` : service;

/**
 * An importer error's message at the command line: the importer's own, with the flag that is
 * the way on where there is one. `readFlags`: whether the command takes import's `--format` and
 * `--encoding` (`delete --from` and `template --from` read a file without them).
 */
export function importErrorText(error: ImportError, readFlags = true): string {
  const detail: ImportErrorDetail | undefined = error.detail;
  switch (detail?.code) {
    case 'not_resumable':
      return detail.kind === 'stdin'
        ? 'stdin cannot be resumed: import from a file to use --resume'
        : error.message;
    case 'date_order_undecided':
      return `${error.message}: pass --date-order mdy (month first) or --date-order dmy (day first)`;
    case 'map_not_applicable':
      return detail.format === 'vcard'
        ? '--map applies to columns; a vCard file fills the fields from its own properties'
        : "--map applies to columns; these JSON records are in the contract's own shape (an external_id and its fields), read as they are";
    case 'sheet_not_workbook':
      return `--sheet applies to .xlsx workbooks; ${detail.file} is read as ${detail.format}`;
    case 'not_a_workbook':
      return `${detail.file}: not a readable .xlsx workbook: it is not a zip archive, as every .xlsx is (is it a CSV with an .xlsx name? then ${readFlags ? 'pass --format csv' : 'name it .csv'})`;
    case 'not_utf8':
      return readFlags
        ? `${error.message}: run again with --encoding ${detail.encoding}${detail.looks ? '' : " (or the file's encoding)"}`
        : `${error.message}: save it as UTF-8 and run again`;
    case 'results_extension':
      return `--results ${detail.path}: name a .csv or .ndjson file (its extension picks the format)`;
    case 'map_no_column':
      return (
        `--map "${detail.header}=...": the file has no column "${detail.header}" ` +
        `(columns: ${detail.columns.join(', ')})${detail.suggestion}`
      );
    case 'map_duplicate_target':
      return `--map: two columns map to ${detail.target}; keep one of them`;
    case 'attribute_not_defined':
      return detail.override === undefined
        ? error.message
        : `--map "${detail.override}=...": custom attribute "${detail.attribute}" is not defined for this agent ` +
            `(defined: ${detail.defined.length ? detail.defined.join(', ') : 'none'}); define it first, or map the column to -`;
    case 'no_key_column':
      return (
        `No column maps to external_id, and no email column can stand in for it (columns: ${detail.columns.join(', ')})` +
        `${detail.notKeys.map(({ column, why }) => `; ${column} cannot: ${why}`).join('')}. ` +
        'Name one with --map "<column>=external_id" (a column can fill two fields: --map "Email=external_id,email").'
      );
    case 'resume_undone':
      return (
        `The import this run would resume was taken back by contacts undo (${detail.undoneAt}): its rows are not ` +
        'in the directory any more. Import the file again with --restart'
      );
    case 'output_not_ours':
      return `${error.message}: move it, or pass --${detail.output} with another path`;
    case 'undo_dir_unwritable':
      return (
        `Cannot keep this import's undo record in ${detail.dir}: ${detail.reason}. ` +
        'Set CONTACTS_DATA_DIR to a directory you can write, or import with --no-undo'
      );
    default:
      return error.message;
  }
}

/**
 * An importer error that stops a command before it starts: the user's file or options.
 * `readFlags` as for `importErrorText`.
 */
export function importUsageError(error: ImportError, readFlags = true): UsageError {
  return new UsageError(importErrorText(error, readFlags), { cause: error });
}

/** How to read values of a kind the import could not: the flag it was not given. */
export function problemHint(code: ProblemCode): string {
  switch (code) {
    case 'phone_no_country':
    case 'phone_ambiguous':
      return 'To read national phone numbers in one country, pass --default-country with its ISO code (e.g. --default-country US).';
    case 'date_order_open':
      return 'To read slash dates that read both ways, pass --date-order mdy (month first) or --date-order dmy (day first).';
  }
}

/** The hints of these problem codes, each said once. */
export function problemHints(codes: readonly ProblemCode[]): string[] {
  return [...new Set(codes.map(problemHint))];
}

/** The reading options a resume must share, by their flags. */
const OPTION_FLAGS = { defaultCountry: '--default-country', dateOrder: '--date-order' } as const;

/** Why a resume is refused, and the flags that resume as the run resumed did. */
export function mismatchText(m: CheckpointMismatch): string {
  switch (m.code) {
    case 'service': {
      const how = !m.was.startsWith('mock:')
        ? `--base-url ${m.was}`
        : m.now.startsWith('mock:')
          ? `CONTACTS_MOCK_DATA=${m.was.slice(5)}`
          : `--mock and CONTACTS_MOCK_DATA=${m.was.slice(5)}`;
      return `${m.reason}: resume with ${how}`;
    }
    case 'time_zone':
      return `${m.reason}: resume with --time-zone ${m.was}`;
    case 'option': {
      const flag = OPTION_FLAGS[m.option];
      return m.was === null
        ? `the run resumed had no ${flag}, this run has ${String(m.now)}: resume without ${flag}`
        : `the run resumed had ${flag} ${m.was}, this run ${m.now === null ? 'none' : `has ${m.now}`}: resume with ${flag} ${m.was}`;
    }
    default:
      return m.reason;
  }
}

/** A resume its checkpoint refuses, in the CLI's words, with the way on that starts over. */
export function checkpointRefusal(error: CheckpointMismatchError): UsageError {
  return new UsageError(
    `The checkpoint ${error.path} cannot be resumed by this run (${error.mismatches.map(mismatchText).join('; ')})`,
    { hint: CHECKPOINT_MISMATCH_HINT, cause: error },
  );
}
