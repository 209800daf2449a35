// `contacts template`: its declaration (options, help). The run, ./template.ts, is loaded only
// when the command runs.
import { agentCommand, lazy, type Parent } from '../command.js';
import type { CliIo } from '../io.js';

export function templateCommand(program: Parent, io: CliIo): void {
  agentCommand(program, 'template')
    .description("print the import file to fill: the contact fields and the agent's attributes")
    .option(
      '--out <file>',
      'write to this file instead of stdout; its extension picks the format (.xlsx: a workbook)',
    )
    .option(
      '--from <file>',
      'print instead (or write to --out) the mapping file (for import --map-file) the importer makes of this file: its export recognised, each column and what it fills',
    )
    .addHelpText(
      'after',
      `
The columns are named as the importer maps them without --map, so a filled template imports as
is. -o csv (default), json, ndjson or xlsx, else the --out extension.

With --from, the mapping file the importer makes of an export (JSON, {"Header": "field"}; "-"
for a column it leaves out; phone columns in the order they are tried): edit it, then pass it to
import --map-file.

Examples:
  $ contacts template --agent my-agent > contacts.csv   # fill it, then:
  $ contacts import contacts.csv --agent my-agent
  $ contacts template --agent my-agent --out contacts.xlsx
  $ contacts template --from hubspot.csv > hubspot-map.json
  $ contacts import hubspot.csv --map-file hubspot-map.json`,
    )
    .action(lazy(io, async () => (await import('./template.js')).template));
}
