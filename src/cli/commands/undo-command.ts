// `contacts undo`: its declaration (argument, options, help). The run, ./undo.ts, is loaded only
// when the command runs.

import { RECORDS_KEPT } from '../../undo/defaults.js';
import { agentCommand, lazy, type OptionsOf, type Parent } from '../command.js';
import type { CliIo } from '../io.js';

/** `contacts undo`; `UndoCommandOptions` is read from here. */
function declareUndo(parent: Parent) {
  return agentCommand(parent, 'undo')
    .description('take an import back: delete what it created, restore what it updated')
    .argument(
      '[import]',
      "the import to take back: its --results file, or its id from --list (default: the agent's most recent import from this machine)",
    )
    .option('--list', "list the agent's imports that can be taken back: time, id, file, counts, service")
    .option('--dry-run', 'show what would be deleted, restored and kept; change nothing')
    .option('-y, --yes', 'do not ask for confirmation (required when not on a terminal)')
    .addHelpText(
      'after',
      `
Contacts the import created are deleted; in contacts it updated, the fields it sent are put back
as they were (fields that were empty emptied again). A contact changed since the import (its
fields are not those the import left) is kept as it is and listed, with the fields that differ.
Run twice, or after an interruption, an undo finds done what is done (exit 0). An import's record is refused
for another agent or another service (--mock's database, or a base URL).

Records are kept in the data directory (CONTACTS_DATA_DIR; else CONTACTS_CONFIG_DIR/data; else
the platform's, e.g. ~/.local/share/contacts-cli-nodejs), the last ${RECORDS_KEPT} imports per agent.

Exit codes: 0 done (or nothing to do), 2 a record of another agent or service, or of an import
still running, 8 some contacts could not be restored, 130 interrupted.

Examples:
  $ contacts undo --list
  $ contacts undo --dry-run                 # the most recent import: what would change
  $ contacts undo results.csv --yes         # the import that wrote results.csv`,
    );
}

export type UndoCommandOptions = OptionsOf<typeof declareUndo>;

export function undoCommand(program: Parent, io: CliIo): void {
  declareUndo(program).action(lazy(io, async () => (await import('./undo.js')).undo));
}
