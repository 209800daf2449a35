// `contacts import`: its declaration (argument, options, help). The run, ./import.ts, is loaded
// only when the command runs.
import { Option } from '@commander-js/extra-typings';
import { MAX_BATCH_SIZE, PER_PAGE_MAX } from '../../api/limits.js';
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from '../../bulk/defaults.js';
import { DEFAULT_BATCH_SIZE, SAMPLE_ROWS } from '../../importer/defaults.js';
import { DATE_ORDERS, FORMAT_NAMES } from '../../importer/format-names.js';
import { RECORDS_KEPT } from '../../undo/defaults.js';
import { agentCommand, lazy, type OptionsOf, type Parent, settingOption } from '../command.js';
import type { CliIo } from '../io.js';
import { collect, integer } from '../options.js';
import { withCommas } from '../output/plural.js';

/** `contacts import`; `ImportCommandOptions` is read from here. */
function declareImport(parent: Parent) {
  return agentCommand(parent, 'import')
    .description('upsert every row of a CSV, Excel (.xlsx), vCard, JSON or NDJSON file by external_id')
    .argument('<file>', 'the file to import, or - for stdin')
    .addOption(
      new Option('--format <format>', 'input format (default: from the extension, else sniffed)').choices(
        FORMAT_NAMES,
      ),
    )
    .option('--delimiter <char>', 'CSV delimiter: "," ";" or tab (default: detected)')
    .option(
      '--sheet <name>',
      'the sheet of an .xlsx workbook to import (default: the first visible one with values)',
    )
    .addOption(settingOption('default-country'))
    .option(
      '--encoding <name>',
      'text encoding of the file, e.g. windows-1252, latin1, utf-16le (default: UTF-8, or UTF-16 by its BOM)',
    )
    .option(
      '--map <header=field>',
      'map a column: external_id, name, first_name, last_name, email, phonenumber (or phone), country, attr.<name>, or - to ignore (repeatable; several email or phonenumber columns are tried in the order given, the first with a value winning)',
      collect,
    )
    .option(
      '--map-file <file>',
      'a saved mapping: a JSON object {"Header": "field"}; --map flags override its entries',
    )
    .option(
      '--concurrency <n>',
      `requests in flight at most (default ${DEFAULT_CONCURRENCY}); halved while the service asks for less (429, 503)`,
      integer(1, MAX_CONCURRENCY),
    )
    .option(
      '--batch-size <n>',
      `contacts per request at most (1 to ${MAX_BATCH_SIZE}; default ${DEFAULT_BATCH_SIZE}, under the 1 MiB body limit); 1 sends single rows`,
      integer(1, MAX_BATCH_SIZE),
    )
    .option(
      '--rejects <file>',
      'where rows that could not land go (default: <file>.rejects.<ext> next to the input)',
    )
    .option(
      '--results <file>',
      'write line, external_id, id and action (created/updated) of every landed row (.csv or .ndjson); --resume appends',
    )
    .addOption(
      new Option(
        '--date-order <order>',
        'how slash dates such as 3/4/2024 read when a column does not decide it: mdy (month first) or dmy',
      ).choices(DATE_ORDERS),
    )
    .addOption(settingOption('time-zone'))
    .option(
      '--fixes <file>',
      'where fields left out of contacts that landed go (default: <file>.fixes.<ext> next to the input)',
    )
    .option(
      '--strict',
      'a phone or attribute value that cannot be read rejects the whole row (default: the contact lands without it and the field goes to the fixes file)',
    )
    .option(
      '--empty-strings',
      'a quoted empty cell ("") is the empty string and clears a name or text attribute (default: every empty cell means "not given")',
    )
    .option('--resume', 'skip the rows an interrupted run of the same file already landed')
    .addOption(
      new Option(
        '--restart',
        'start over from the first row, discarding the checkpoint of an interrupted run of the same file (without --resume or --restart, such a run refuses)',
      ).conflicts('resume'),
    )
    .option(
      '--dry-run',
      'check every row against the directory and report what would be created, updated or left unchanged; write nothing',
    )
    .option(
      '--diff',
      'with --dry-run: list each row that would change, field: old -> new (-o ndjson or json: one object a row, the summary last)',
    )
    .option(
      '--undoable',
      'record the state before of every contact the import changes, even where reading it costs more requests than the import (see contacts undo)',
    )
    .addOption(
      new Option('--no-undo', 'record nothing for contacts undo (the import reads nothing first)').conflicts(
        'undoable',
      ),
    )
    .addHelpText(
      'after',
      `
Any export imports as it is: each column is read by the words of its header and by its values
(the first ${withCommas(SAMPLE_ROWS)} rows), so Email 1, Work Email, Phone - home, Mobile, Home Country, Attendee no.
or a column that simply holds emails are found whatever system wrote them; the first line says
what each column fills. Lines before the header (notes, a report's title) are skipped. The key is
the file's own id column; without one the email, in lower case; where most rows have no email, a
column filled and unique in every row (a profile URL). Every phone column is tried in turn
(mobile, main, work, home, other). Some exports are also known by name (HubSpot, Salesforce,
Mailchimp, Google Contacts, Outlook, Shopify, Stripe, Pipedrive, Zoho CRM, Intercom, Freshsales,
Klaviyo). A column named after a defined custom attribute, or attr.<name>, fills that attribute.
JSON and NDJSON records in the API's shape (external_id and its fields, custom_attributes
nested) are sent as written. Other systems' records are read as columns, like a CSV export: the
fields of the first 100 records, nested ones by their path (properties.email, phones.0.value);
--map applies. Zendesk's users export (one user object a line) is recognised by its keys.

An .xlsx workbook is read like CSV: the first visible sheet with values (or --sheet), from the
row that looks like a header; cells as the sheet shows them (whole numbers without .0, dates as ISO dates, formulas as
their last computed values). A vCard file (.vcf; 2.1, 3.0, 4.0) gives one row per card: UID to
external_id (else the email), FN (else N) to name, the preferred EMAIL, the preferred or
mobile TEL, and ORG, BDAY, NOTE and TITLE to custom attributes company, birthday, note and
title where the agent defines them; what else the cards hold is counted at the end. Rejected
rows of either are written as CSV.

A national phone number is placed in its row's country (its own address's first), else
--default-country, else the one country it is valid in of those the file's international numbers
and country columns name. A phone or attribute value that
cannot be read goes to the fixes file and the contact lands without it (--strict rejects the row).
A date-time without a zone (HubSpot's 2024-03-22 17:59, Salesforce's 9/20/2022 3:04 PM) is read
in --time-zone's wall clock, daylight saving included, and stored in UTC; without it, as UTC.

Every import can be taken back with contacts undo: before it writes, the import reads what the
contacts it changes hold (the directory listed in pages of ${withCommas(PER_PAGE_MAX)}, or the file's ids asked for),
and keeps that with what it wrote, for the last ${RECORDS_KEPT} imports of each agent. Where that reading
would take more requests than the import itself (a small file into a very large directory), it
says so and records only the contacts it creates; --undoable reads anyway, --no-undo records
nothing.

Exit codes: 0 every row landed (some perhaps without a field: see the fixes file), 8 some rows
were rejected (see the rejects file), 130 interrupted; 2 a file or an option that cannot be
read as asked (no key column, a bad --map), 3 no API key or one refused, 4 no such agent, 6 the
service failing after retries, 7 the service unreachable.

Examples:
  $ contacts import customers.csv --agent my-agent
  $ contacts import export.csv --map "Client Ref=external_id" --map "Notes=-"
  $ contacts import contacts.ndjson --batch-size 500
  $ contacts import leads.xlsx --sheet "Q3 leads"
  $ contacts import hubspot-contacts.csv --time-zone America/New_York
  $ contacts import "All Contacts.vcf"
  $ contacts import big.csv --resume           # after a crash or Ctrl-C
  $ contacts import big.csv --restart          # the same, but from the first row again
  $ contacts undo                              # take the last import back
  $ cat contacts.ndjson | contacts import - --format ndjson`,
    );
}

export type ImportCommandOptions = OptionsOf<typeof declareImport>;

export function importCommand(program: Parent, io: CliIo): void {
  declareImport(program).action(lazy(io, async () => (await import('./import.js')).importFile));
}
