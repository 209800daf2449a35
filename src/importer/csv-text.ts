// How values are written in the CSV files this tool produces (exports, rejects) and read back by
// the importer, so that what export writes, import reads back exactly:
// - an empty cell without quotes is "no value" (null, or "not given" on import); `""` is the
//   empty string; a value with leading or trailing whitespace is quoted, so it keeps it;
// - a value a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR first, OWASP's
//   list) gets a leading `'`, which spreadsheets show as text and the importer removes again.
//   A negative number (`-5`) is left alone: it is a number, not a formula. A leading `+` always
//   gets the `'`: an E.164 phone number (`+442079460958`) would otherwise lose its `+`.

/** csv-stringify options for every CSV this tool writes. */
export const CSV_WRITE_OPTIONS: { quoted_match: RegExp[] } = {
  // null and undefined become an unquoted empty cell; an empty or space-edged string is quoted.
  quoted_match: [/^$/, /^\s/, /\s$/],
};

const FORMULA_RE = /^'*[=+\-@\t\r]/;
const NEUTRALISED_RE = /^'+[=+\-@\t\r]/;
const NEGATIVE_NUMBER_RE = /^-(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A cell value safe to open in a spreadsheet: a formula trigger first gets a leading `'`. */
export function neutraliseFormula(value: string): string {
  return FORMULA_RE.test(value) && !NEGATIVE_NUMBER_RE.test(value) ? `'${value}` : value;
}

/** The inverse of `neutraliseFormula`: one leading `'` before a formula trigger is removed. */
export function restoreFormula(value: string): string {
  return NEUTRALISED_RE.test(value) ? value.slice(1) : value;
}

/** A cell as written: null and undefined stay empty (unquoted); strings are neutralised. */
export function csvCell(value: string | null | undefined): string | null {
  return value === undefined || value === null ? null : neutraliseFormula(value);
}
