// `contacts export`: its declaration (options, help). The run, ./export.ts, is loaded only when
// the command runs.
import { agentCommand, lazy, type OptionsOf, type Parent } from '../command.js';
import type { CliIo } from '../io.js';

/** `contacts export`; `ExportCommandOptions` is read from here. */
function declareExport(parent: Parent) {
  return agentCommand(parent, 'export')
    .description('write every contact of the agent as CSV (importable again as is), JSON, NDJSON or .xlsx')
    .option(
      '--out <file>',
      'write to this file (atomically) instead of stdout; its extension picks the format',
    )
    .option(
      '--raw',
      "CSV values as they are, for scripts: no ' before a cell starting with =, +, - or @ (which stops a spreadsheet running it as a formula)",
    )
    .addHelpText(
      'after',
      `
The format is -o csv|json|ndjson|xlsx, else the --out extension (.csv, .json, .ndjson, .jsonl,
.xlsx), else csv; any other extension is refused. An .xlsx workbook has typed cells: numbers,
dates and booleans as such, ids as text; it imports back unchanged. Its CSV is made for a
spreadsheet: a cell starting with =, +, - or @ (a phone number's +) gets a leading ', which
spreadsheets show as text and \`contacts import\` removes again; --raw writes values as they are
(CSV only: JSON, NDJSON and .xlsx never change a value, and refuse --raw).
-o csv on the other commands writes values as they are.`,
    );
}

export type ExportCommandOptions = OptionsOf<typeof declareExport>;

export function exportCommand(program: Parent, io: CliIo): void {
  declareExport(program).action(lazy(io, async () => (await import('./export.js')).exportContacts));
}
