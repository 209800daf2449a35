// The `contacts` program: commands and options declared here, each command's code loaded only
// when it runs, so `contacts --help` and `contacts get` stay fast.
import {
  Argument,
  Command,
  type CommandUnknownOpts,
  Option,
  type OptionValues,
} from '@commander-js/extra-typings';
import { ATTRIBUTE_TYPES, MAX_BATCH_SIZE, PER_PAGE_MAX, PER_PAGE_MIN } from '../api/limits.js';
import { HTTP_METHODS } from '../api/operations.js';
import type { SettingsFlags } from '../config/resolve.js';
import {
  type Camel,
  GLOBAL_SETTING_NAMES,
  type GlobalSettingKey,
  PROFILE_ENV,
  SETTING_NAMES,
  SETTINGS,
  type SettingKey,
  type SettingSpec,
  type Settings,
  SWITCHES,
  type SwitchKey,
  settingHelp,
} from '../config/settings.js';
import { redactSecrets } from '../core/redact.js';
import { VERSION } from '../core/version.js';
import { FORMAT_NAMES } from '../importer/format-names.js';
import { didYouMean } from '../util/suggest.js';
import type { CommandContext } from './context.js';
import type { CliIo } from './io.js';
import { collect, collectAttr, collectList, collectStripeAccount, decimal, integer } from './options.js';
import { visible } from './output/visible.js';
import { SHELLS, type Shell } from './shells.js';

/**
 * A command's run: the context, the positional arguments, then the command's own options. The
 * types come from the command's declaration (commander's extra typings): `lazy` only accepts a
 * run whose parameters take what the declared arguments and options give, so a flag and the
 * type its command reads cannot disagree.
 */
type CommandRun<A extends unknown[], O extends OptionValues> = (
  ctx: CommandContext,
  ...args: [...A, O]
) => Promise<void>;

/**
 * Wraps a lazily imported command run (a typed import, so a renamed or missing command is a
 * compile error): builds the command context from the global and local options, runs the
 * command, and always releases what the context opened.
 */
function lazy<A extends unknown[], O extends OptionValues>(
  io: CliIo,
  load: () => Promise<NoInfer<CommandRun<A, O>>>,
): (...args: [...A, O, CommandUnknownOpts]) => Promise<void> {
  return async (...args) => {
    const command = args.at(-1) as CommandUnknownOpts;
    const positionals = args.slice(0, -2) as A;
    const [{ CommandContext }, run] = await Promise.all([import('./context.js'), load()]);
    const ctx = new CommandContext(io, command.optsWithGlobals() as ContextOptions);
    try {
      await run(ctx, ...positionals, command.opts() as O);
    } catch (error) {
      throw await ctx.explain(error);
    } finally {
      await ctx.close();
    }
  };
}

/** A setting's option, as the settings table declares it (flags, help, choices). */
function settingOption<K extends SettingKey>(key: K) {
  const spec: SettingSpec<unknown> = SETTINGS[key];
  const option = new Option<Settings[K]['flags']>(SETTINGS[key].flags, settingHelp(key));
  if (spec.choices) option.choices(spec.choices);
  return option;
}

/** An on/off option with its variable, as the switches table declares it. */
function switchOption<K extends SwitchKey>(key: K) {
  const spec = SWITCHES[key];
  return new Option<(typeof SWITCHES)[K]['flags']>(spec.flags, `${spec.description} (env: ${spec.env}=1)`);
}

/** The global settings' options, as `settingOption` declares each (a value, or nothing). */
type GlobalSettingFlags = { [K in GlobalSettingKey as Camel<K>]?: string | undefined };

/** The options every command takes, declared once; their types are `GlobalOptions`. */
function globalOptions(program: Command) {
  // The settings table's scope decides which settings every command takes.
  for (const key of GLOBAL_SETTING_NAMES) program.addOption(settingOption(key));
  return (program as unknown as Command<[], GlobalSettingFlags>)
    .option('--profile <name>', `configuration profile (env: ${PROFILE_ENV})`)
    .addOption(switchOption('insecure-http'))
    .addOption(switchOption('mock'))
    .option('--debug', 'print each request and response (key redacted) and error details to stderr')
    .option('-q, --quiet', 'print only data on stdout, and only errors on stderr')
    .addOption(switchOption('no-input'))
    .option('--no-color', 'disable colors (also NO_COLOR)')
    .option('--no-truncate', 'tables print every character instead of fitting the terminal');
}

export type GlobalOptions = ReturnType<ReturnType<typeof globalOptions>['opts']>;
/** A command of the program, before its own arguments and options (commander's `{}`: none yet). */
// biome-ignore lint/complexity/noBannedTypes: the empty options type extra-typings starts a command with.
type SubCommand = Command<[], {}, GlobalOptions>;
/** The options a command's declaring function gives it, as commander's extra typings read them. */
type OptionsOf<F extends (cmd: SubCommand) => { opts(): unknown }> = ReturnType<ReturnType<F>['opts']>;
/** What a command's context reads: the global options and the per-command setting flags. */
export type ContextOptions = GlobalOptions & SettingsFlags;

/**
 * `contacts config --help`: every setting, its variable and its flag, and the order they win in.
 * Read from the settings table, so a new setting is listed as soon as it is declared.
 */
function settingsHelp(): string {
  const rows = SETTING_NAMES.map((key) => {
    const spec: SettingSpec<unknown> = SETTINGS[key];
    const long = spec.flags.replace(/^-\w, /, '').replace(/ <.*$/, '');
    return [key, spec.description, `${long}${spec.env ? `, ${spec.env}` : ''}`];
  });
  const width = Math.max(...rows.map(([key]) => key!.length));
  return [
    'Settings (a flag wins over its variable, which wins over the profile):',
    ...rows.map(([key, description, sources]) => `  ${key!.padEnd(width)}  ${description} (${sources})`),
    '',
    'The API key is never a setting: `contacts auth login` stores it; CONTACTS_API_KEY, then',
    'CONTACTS_API_KEY_FILE (a file whose first line is the key) win over the stored one.',
  ].join('\n');
}

const contactCommands = () => import('./commands/contacts.js');
const attrCommands = () => import('./commands/attrs.js');
const authCommands = () => import('./commands/auth.js');
const configCommands = () => import('./commands/config.js');
const completionCmd = () => import('./commands/completion.js');

const agentOption = () => settingOption('agent');
const defaultCountryOption = () => settingOption('default-country');

/** Options shared by `upsert` and `update`: the contact's fields. */
function fieldOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  cmd: Command<A, O, G>,
) {
  return cmd
    .option('--name <name>', "the contact's name")
    .option('--email <email>', "the contact's email address")
    .option(
      '--phone <number>',
      'phone number, sent as E.164: "+44 20 7946 0958", or national with --default-country',
    )
    .addOption(new Option('--phonenumber <number>', 'the same as --phone, by the field name').hideHelp())
    .addOption(defaultCountryOption())
    .option(
      '--attr <key=value>',
      'set a custom attribute, converted to its type (seats=3 is the number 3); key:=json sends raw JSON (repeatable)',
      collectAttr,
    )
    .option(
      '--stripe-account <label=..,id=..>',
      'a linked Stripe account: label=main,id=cus_123 and/or email=billing@example.com (repeatable; replaces the list)',
      collectStripeAccount,
    )
    .option('--data <json|@file>', 'the fields as JSON, inline or @file.json (@- for stdin); flags win');
}

/** `list`'s options; `ListCommandOptions` is read from here. */
function listOptions(cmd: SubCommand) {
  return cmd
    .addOption(agentOption())
    .option('-p, --page <n>', 'page number', integer(1))
    .option(
      '--per-page <n>',
      `contacts per page (${PER_PAGE_MIN} to ${PER_PAGE_MAX})`,
      integer(PER_PAGE_MIN, PER_PAGE_MAX),
    )
    .option('--all', 'stream every page')
    .option(
      '--columns <list>',
      "the table's columns, comma-separated: id, external_id, name, email, phonenumber, stripe, attributes, created_at, updated_at, attr.<name> (default: external_id to updated_at, those empty on the page left out; on a narrow terminal the times and summaries go first, then the name, and ids, emails and phone numbers are never cut)",
    );
}

export type ListCommandOptions = OptionsOf<typeof listOptions>;

/** `delete`'s argument and options; `DeleteCommandOptions` is read from here. */
function deleteOptions(cmd: SubCommand) {
  return cmd
    .argument('[id]', 'external_id or the service id')
    .addOption(agentOption())
    .option(
      '--from <file>',
      'delete every contact the file names, keyed as its import keyed them: an import file, a results file (only the contacts the import created), or one id a line; - for stdin',
    )
    .option(
      '--include-updated',
      'with --from a results file: delete the contacts the import updated too (they existed before it; by default only those it created)',
    )
    .option('--dry-run', 'with --from: say what would be deleted, delete nothing')
    .option(
      '--missing-ok',
      'a contact already gone is not an error: exit 0, noted on stderr (--from always counts it done)',
    )
    .option('-y, --yes', 'do not ask for confirmation (required when not on a terminal)');
}

export type DeleteCommandOptions = OptionsOf<typeof deleteOptions>;

/** `export`'s options; `ExportCommandOptions` is read from here. */
function exportOptions(cmd: SubCommand) {
  return cmd
    .addOption(agentOption())
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

export type ExportCommandOptions = OptionsOf<typeof exportOptions>;

/** `api`'s arguments and options; `ApiCommandOptions` is read from here. */
function apiOptions(cmd: SubCommand) {
  return cmd
    .addArgument(new Argument('<method>', 'the HTTP method').choices(HTTP_METHODS))
    .argument('<path>', 'the path below the base URL, with any query; {agent} is filled with the agent')
    .addOption(agentOption())
    .option(
      '--data <json|@file>',
      'the request body (POST, PATCH, PUT, DELETE): JSON inline, @file.json, or @- for stdin',
    )
    .addHelpText(
      'after',
      `
The answer's JSON goes to stdout (-o ndjson: on one line), or its text as sent when it is not
JSON or holds numbers JSON would change (integers past 2^53). A path leading out of the base URL
(/../admin, %2e%2e) or holding a space is refused. POST and PATCH are retried only when the
connection was refused. An error status exits as every command does (3 key refused, 4 not
found, ...), with the service's message.

Examples:
  $ contacts api GET '/api/v1/chatbots/{agent}/contacts?per_page=10'
  $ contacts api POST '/api/v1/chatbots/{agent}/custom-attributes' --data @attribute.json
  $ contacts api DELETE /api/v1/chatbots/{agent}/contacts/u_42`,
    );
}

export type ApiCommandOptions = OptionsOf<typeof apiOptions>;

/** `auth login`'s options; `LoginCommandOptions` is read from here. */
function loginOptions(cmd: SubCommand) {
  return cmd
    .option('--with-key', 'read the key from stdin, e.g. `contacts auth login --with-key < key.txt`')
    .addOption(agentOption())
    .addHelpText(
      'after',
      `
The key is stored in the profile named by --profile (default: "default"), with --base-url if given.
When an agent is known (--agent, CONTACTS_AGENT or the profile), the key is checked first with one
call to the service: a key it refuses is not stored (exit 3). Otherwise it is stored unverified.`,
    );
}

export type LoginCommandOptions = OptionsOf<typeof loginOptions>;

/** `import`'s arguments and options; `ImportCommandOptions` is read from here. */
function importOptions(cmd: SubCommand) {
  return cmd
    .argument('<file>', 'the file to import, or - for stdin')
    .addOption(agentOption())
    .addOption(
      new Option('--format <format>', 'input format (default: from the extension, else sniffed)').choices(
        FORMAT_NAMES,
      ),
    )
    .option('--delimiter <char>', 'CSV delimiter: "," ";" or tab (default: detected)')
    .option('--sheet <name>', 'the sheet of an .xlsx workbook to import (default: the first)')
    .addOption(defaultCountryOption())
    .option(
      '--encoding <name>',
      'text encoding of the file, e.g. windows-1252, latin1, utf-16le (default: UTF-8, or UTF-16 by its BOM)',
    )
    .option(
      '--map <header=field>',
      'map a column: external_id, name, first_name, last_name, email, phonenumber (or phone), country, attr.<name>, or - to ignore (repeatable; several phonenumber columns are tried in the order given)',
      collect,
    )
    .option(
      '--map-file <file>',
      'a saved mapping: a JSON object {"Header": "field"}; --map flags override its entries',
    )
    .option(
      '--concurrency <n>',
      'requests in flight at most (default 8); halved while the service asks for less (429, 503)',
      integer(1, 256),
    )
    .option(
      '--batch-size <n>',
      `contacts per request at most (1 to ${MAX_BATCH_SIZE}; default ${MAX_BATCH_SIZE}, under the 1 MiB body limit); 1 sends single rows`,
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
      ).choices(['mdy', 'dmy'] as const),
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
      'with --dry-run: list each row that would change, field: old -> new (-o ndjson: one object a row)',
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
(the first 1,000 rows), so Email 1, Work Email, Phone - home, Mobile, Home Country, Attendee no.
or a column that simply holds emails are found whatever system wrote them; the first line says
what each column fills. Lines before the header (notes, a report's title) are skipped. The key is
the file's own id column; without one the email, in lower case; where most rows have no email, a
column filled and unique in every row (a profile URL). Every phone column is tried in turn
(mobile, main, work, home, other). Some exports are also known by name (HubSpot, Salesforce,
Mailchimp, Google Contacts, Outlook, Shopify, Stripe, Pipedrive, Zoho CRM, Intercom, Freshsales,
Klaviyo). A column named after a defined custom attribute, or attr.<name>, fills that attribute.
JSON and NDJSON records use the API's field names, with custom_attributes nested, except
Zendesk's users export (one user object a line, also in a .json file): its keys are read as
columns, user_fields as columns of their own names, keyed by Zendesk's id (--map applies).

An .xlsx workbook is read like CSV: the first sheet (or --sheet), from the row that looks like a
header; cells as the sheet shows them (whole numbers without .0, dates as ISO dates, formulas as
their last computed values). A vCard file (.vcf; 2.1, 3.0, 4.0) gives one row per card: UID to
external_id (else the email), FN (else N) to name, the preferred EMAIL, the preferred or
mobile TEL, and ORG to a custom attribute company if the agent defines one. Rejected rows of
either are written as CSV.

A national phone number is placed in its row's country (its own address's first), else
--default-country, else the one country it is valid in of those the file's international numbers
and country columns name. A phone or attribute value that
cannot be read goes to the fixes file and the contact lands without it (--strict rejects the row).
A date-time without a zone (HubSpot's 2024-03-22 17:59, Salesforce's 9/20/2022 3:04 PM) is read
in --time-zone's wall clock, daylight saving included, and stored in UTC; without it, as UTC.

Every import can be taken back with contacts undo: before it writes, the import reads what the
contacts it changes hold (the directory listed in pages of 1,000, or the file's ids asked for),
and keeps that with what it wrote, for the last 20 imports of each agent. Where that reading
would take more requests than the import itself (a small file into a very large directory), it
says so and records only the contacts it creates; --undoable reads anyway, --no-undo records
nothing.

Exit codes: 0 every row landed (some perhaps without a field: see the fixes file), 8 some rows
were rejected (see the rejects file), 130 interrupted.

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

export type ImportCommandOptions = OptionsOf<typeof importOptions>;

/** `undo`'s argument and options; `UndoCommandOptions` is read from here. */
function undoOptions(cmd: SubCommand) {
  return cmd
    .argument(
      '[import]',
      "the import to take back: its --results file, or its id from --list (default: the agent's most recent import from this machine)",
    )
    .addOption(agentOption())
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
the platform's, e.g. ~/.local/share/contacts-cli-nodejs), the last 20 imports per agent.

Exit codes: 0 done (or nothing to do), 2 a record of another agent or service, or of an import
still running, 8 some contacts could not be restored, 130 interrupted.

Examples:
  $ contacts undo --list
  $ contacts undo --dry-run                 # the most recent import: what would change
  $ contacts undo results.csv --yes         # the import that wrote results.csv`,
    );
}

export type UndoCommandOptions = OptionsOf<typeof undoOptions>;

/** `serve`'s options; `ServeOptions` is read from here. */
function serveOptions(cmd: SubCommand) {
  return cmd
    .option('--mock', 'required: the mock is the server this command runs')
    .option('--port <port>', 'port to listen on (0 picks a free one)', integer(0, 65535), 4010)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option(
      '--data <file>',
      "keep the state in this SQLite database (default: ./.contacts-mock/mock.db, the embedded --mock's; created if absent; each write committed before it is answered)",
    )
    .option('--in-memory', 'keep nothing: the state lives in memory and goes when the server stops')
    .option(
      '--seed <file>',
      'put these contacts (and attribute definitions) into an empty store at start, and back at each POST /__mock/reset: CSV, JSON or NDJSON',
    )
    .option(
      '--seed-agent <id>',
      "the agent a --seed file's contacts belong to (default: demo; with --agents, the only one; one of several must be named)",
    )
    .option('--key <bk_key>', 'accept only this key (repeatable; default: any bk_ key)', collect)
    .option(
      '--allow-host <name>',
      "serve requests for this host name too (repeatable; .example.com for its subdomains; * for any, which needs --key as it lets web pages in through DNS rebinding); loopback names, IP addresses and this machine's name are always served, other names get 421",
      collect,
    )
    .option(
      '--cors <origin>',
      'let web pages from this origin call the mock, e.g. http://localhost:3000 (repeatable; * for any, which needs --key); none by default',
      collect,
    )
    .option(
      '--agents <ids>',
      'the agents that exist, comma-separated (repeatable); any other is 404 "Chatbot not found" (default: every agent)',
      collectList,
    )
    .option(
      '--strict',
      'refuse unknown fields with 400 "Unknown field" instead of dropping them as production does',
    )
    .option(
      '--max-contacts <n>',
      'contacts an agent may hold; past it, 400 "Maximum contacts limit reached"',
      integer(0),
    )
    .option('--latency <ms>', 'delay every answer by this many milliseconds', integer(0, 60_000))
    .option(
      '--fail-rate <r>',
      'fail this share of requests (0 to 1): 500, 503, resets, lost responses',
      decimal(0, 1),
    )
    .option('--fault-seed <n>', 'seed for reproducible faults', integer(0))
    .option('--rate-limit <n>', 'allow this many requests per window (a second), then 429', integer(1))
    .option(
      '--rate-window <seconds>',
      'the rate limit window in seconds (production: --rate-limit 100 --rate-window 10)',
      integer(1, 3600),
    )
    .option('--no-rate-limit-headers', 'answer 429s with Retry-After only, without X-RateLimit-* headers');
}

export type ServeOptions = ReturnType<ReturnType<typeof serveOptions>['opts']>;

export function buildProgram(io: CliIo): Command {
  const program = new Command('contacts');
  program
    .description('Work with the Contacts API from a terminal, a script or a CI job.')
    .version(
      `contacts version ${VERSION} (Node.js ${process.version}; ${process.platform} ${process.arch})`,
      '-V, --version',
      'print the version, and the Node.js version and platform',
    )
    .helpOption('-h, --help', 'show help for a command');
  globalOptions(program)
    .configureHelp({ showGlobalOptions: false, sortSubcommands: false })
    .showHelpAfterError('(add --help for usage)')
    .showSuggestionAfterError()
    .exitOverride()
    .configureOutput({
      writeOut: (s) => void io.stdout.write(s),
      writeErr: (s) => void io.stderr.write(s),
      // commander echoes bad input back; a key pasted in the wrong place must not be.
      outputError: (s, write) => write(visible(redactSecrets(s))),
    })
    .addHelpText(
      'after',
      `
Examples:
  $ contacts auth login
  $ contacts attrs define plan --type text --agent my-agent
  $ contacts upsert --external-id u_42 --name "Ada Lovelace" --email ada@example.com --attr plan=pro
  $ contacts list --all -o ndjson | jq .email
  $ contacts --mock list --agent demo      # no key, no server: an embedded mock

Learn more: contacts <command> --help`,
    );

  listOptions(
    program.command('list').alias('ls').description("list the agent's contacts, oldest first"),
  ).action(lazy(io, async () => (await contactCommands()).list));

  program
    .command('get')
    .description('show one contact')
    .argument('<id>', 'external_id or the service id')
    .addOption(agentOption())
    .action(lazy(io, async () => (await contactCommands()).get));

  fieldOptions(
    program
      .command('upsert')
      .description('create a contact, or update the one with the same external_id')
      .addOption(agentOption())
      .option('-e, --external-id <id>', "your system's id for the contact (required, here or in --data)"),
  )
    // Not an upsert option: taken only to say that `update` clears fields.
    .addOption(new Option('--unset <field>').hideHelp().argParser(collect))
    .action(lazy(io, async () => (await contactCommands()).upsert));

  fieldOptions(
    program
      .command('update')
      .description("change some of a contact's fields (the rest keep their values)")
      .argument('<id>', 'external_id or the service id')
      .addOption(agentOption())
      .option('-e, --external-id <id>', 'give the contact a new external_id'),
  )
    .option(
      '--unset <field>',
      'clear a field: name, email, phone, stripe_accounts or attr.<name> (repeatable)',
      collect,
    )
    .action(lazy(io, async () => (await contactCommands()).update));

  deleteOptions(
    program
      .command('delete')
      .alias('rm')
      .description('delete a contact, or every contact a file names (--from)'),
  ).action(lazy(io, async () => (await contactCommands()).remove));

  importOptions(
    program
      .command('import')
      .description('upsert every row of a CSV, Excel (.xlsx), vCard, JSON or NDJSON file by external_id'),
  ).action(lazy(io, async () => (await import('./commands/import.js')).importFile));

  undoOptions(
    program
      .command('undo')
      .description('take an import back: delete what it created, restore what it updated'),
  ).action(lazy(io, async () => (await import('./commands/undo.js')).undo));

  program
    .command('template')
    .description("print the import file to fill: the contact fields and the agent's attributes")
    .addOption(agentOption())
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
    .action(lazy(io, async () => (await import('./commands/template.js')).template));

  exportOptions(
    program
      .command('export')
      .description('write every contact of the agent as CSV (importable again as is), JSON, NDJSON or .xlsx'),
  ).action(lazy(io, async () => (await import('./commands/export.js')).exportContacts));

  const attrs = program.command('attrs').description('list and define typed custom attributes');
  attrs
    .command('list')
    .alias('ls')
    .description("list the agent's custom attribute definitions, archived ones too")
    .addOption(agentOption())
    .action(lazy(io, async () => (await attrCommands()).list));
  attrs
    .command('define')
    .description('define a typed custom attribute')
    .argument('<name>', 'lowercase letters, digits and _, starting with a letter')
    .addOption(agentOption())
    .addOption(new Option('-t, --type <type>', 'value type').choices(ATTRIBUTE_TYPES).makeOptionMandatory())
    .option('--label <label>', 'human-readable label (default: the name)')
    .option('--description <text>', 'what the attribute means')
    .option('--if-not-exists', 'succeed if it already exists with the same type (for seeding scripts)')
    .action(lazy(io, async () => (await attrCommands()).define));
  attrs
    .command('update')
    .description("change an attribute's label or description, or archive it (the type never changes)")
    .argument('<name>', 'the attribute name')
    .addOption(agentOption())
    .option('--label <label>', 'new label')
    .option('--description <text>', 'new description')
    .addOption(
      new Option('--archive', 'archive: values are kept, only null is accepted').conflicts('unarchive'),
    )
    .option('--unarchive', 'accept values again')
    .action(lazy(io, async () => (await attrCommands()).update));

  const auth = program.command('auth').description('store, check and remove the workspace key');
  loginOptions(
    auth.command('login').description('store a bk_ workspace key (hidden prompt, or stdin with --with-key)'),
  ).action(lazy(io, async () => (await authCommands()).login));
  auth
    .command('status')
    .description('show the base URL, profile and key in use (masked), and where each came from')
    .action(lazy(io, async () => (await authCommands()).status));
  auth
    .command('logout')
    .description("remove the profile's stored key (--profile picks the profile)")
    .action(lazy(io, async () => (await authCommands()).logout));

  const settingWords = `${SETTING_NAMES.slice(0, -1).join(', ')} or ${SETTING_NAMES.at(-1)}`;
  const config = program
    .command('config')
    .description(`read and change settings: ${SETTING_NAMES.join(', ')}`)
    .addHelpText('after', () => `\n${settingsHelp()}`);
  config
    .command('get')
    .description('print one setting of the profile')
    .argument('<key>', settingWords)
    .action(lazy(io, async () => (await configCommands()).get));
  config
    .command('set')
    .description('change one setting of the profile')
    .argument('<key>', settingWords)
    .argument('<value>', 'the new value')
    .action(lazy(io, async () => (await configCommands()).set));
  config
    .command('unset')
    .description('remove one setting from the profile')
    .argument('<key>', settingWords)
    .action(lazy(io, async () => (await configCommands()).unset));
  config
    .command('list')
    .description("list the profile's settings and the config file's path")
    .action(lazy(io, async () => (await configCommands()).list));

  serveOptions(
    program
      .command('serve')
      .description('run a local mock of the Contacts API for offline work and tests: contacts serve --mock'),
  ).action(lazy(io, async () => (await import('./commands/serve.js')).serve));

  apiOptions(
    program
      .command('api')
      .description(
        'send any request to the API with the configured key, base URL and retries; print the answer',
      ),
  ).action(lazy(io, async () => (await import('./commands/api.js')).api));

  program
    .command('completion')
    .description('print a shell completion script')
    .addArgument(new Command().createArgument('<shell>', SHELLS.join(', ')).choices(SHELLS))
    .addHelpText(
      'after',
      '\nExample:\n  $ contacts completion bash > ~/.local/share/bash-completion/completions/contacts',
    )
    .action(async (shell: string) => {
      const { completionScript } = await completionCmd();
      io.stdout.write(completionScript(program, shell as Shell));
    });

  // `help <command>` with a command that does not exist says so, with a suggestion, instead of
  // printing the whole help and exiting as if asked for it.
  program.helpCommand(false);
  program
    .command('help')
    .description('show help for a command')
    .argument('[command...]', 'the command, e.g. `help attrs define`')
    .action(async (words: string[]) => {
      let cmd: CommandUnknownOpts = program;
      for (const word of words) {
        const sub = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
        if (!sub) {
          const known = cmd.commands.flatMap((c) => [c.name(), ...c.aliases()]);
          const where = cmd === program ? '' : ` of ${cmd.name()}`;
          const { UsageError } = await import('./errors.js');
          throw new UsageError(`unknown command '${word}'${where}${didYouMean(word, known)}`, {
            hint: `Run \`contacts ${[...words.slice(0, words.indexOf(word)), ''].join(' ')}--help\` to see the commands.`,
          });
        }
        cmd = sub;
      }
      cmd.outputHelp();
    });

  // As gh does: a command's help shows its own options and points at the global ones.
  const globals = program.options.map((o) => o.long).filter((flag) => flag && flag !== '--version');
  const pointer = `\nGlobal options (${globals.slice(0, 5).join(', ')} and ${globals.length - 5} more): see \`contacts --help\`.`;
  const addPointer = (cmd: CommandUnknownOpts) => {
    for (const sub of cmd.commands) {
      sub.addHelpText('after', pointer);
      addPointer(sub);
    }
  };
  addPointer(program);

  return program;
}
