// The `contacts` program: commands and options declared here, each command's code loaded only
// when it runs, so `contacts --help` and `contacts get` stay fast.
import { Command, Option } from 'commander';
import { ATTRIBUTE_TYPES, MAX_BATCH_SIZE, PER_PAGE_MAX, PER_PAGE_MIN } from '../api/limits.js';
import { OUTPUT_FORMATS } from '../config/output-formats.js';
import { redactSecrets } from '../core/redact.js';
import { VERSION } from '../core/version.js';
import { FORMAT_NAMES } from '../importer/format-names.js';
import { didYouMean } from '../util/suggest.js';
import type { CommandContext } from './context.js';
import type { CliIo } from './io.js';
import { collect, collectAttr, collectList, collectStripeAccount, decimal, integer } from './options.js';
import { visible } from './output/visible.js';
import { SHELLS, type Shell } from './shells.js';

type Action = (...args: unknown[]) => Promise<void>;
/** A command function: the context, the positional arguments, then the command's own options. */
// biome-ignore lint/suspicious/noExplicitAny: each command types its own arguments and options.
type CommandFn = (ctx: CommandContext, ...args: any[]) => Promise<void>;

/**
 * Wraps a lazily imported command function (a typed import, so a renamed or missing command is
 * a compile error, not a runtime one): builds the command context from the global and local
 * options, runs the command, and always releases what the context opened.
 */
function lazy(io: CliIo, load: () => Promise<CommandFn>): Action {
  return async (...args: unknown[]) => {
    const command = args.at(-1) as Command;
    const positionals = args.slice(0, -2);
    const [{ CommandContext }, fn] = await Promise.all([import('./context.js'), load()]);
    const ctx = new CommandContext(io, command.optsWithGlobals());
    try {
      await fn(ctx, ...positionals, command.opts());
    } finally {
      await ctx.close();
    }
  };
}

const contactCommands = () => import('./commands/contacts.js');
const attrCommands = () => import('./commands/attrs.js');
const authCommands = () => import('./commands/auth.js');
const configCommands = () => import('./commands/config.js');
const completionCmd = () => import('./commands/completion.js');

const agentOption = () =>
  new Option(
    '-a, --agent <id>',
    'agent whose directory to use (env: CONTACTS_AGENT, or the profile default)',
  );

const defaultCountryOption = () =>
  new Option(
    '--default-country <code>',
    'country of national phone numbers, e.g. GB (env: CONTACTS_DEFAULT_COUNTRY, or the profile default)',
  );

/** Options shared by `upsert` and `update`: the contact's fields. */
function fieldOptions(cmd: Command): Command {
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

export function buildProgram(io: CliIo): Command {
  const program = new Command('contacts');
  program
    .description('Work with the Contacts API from a terminal, a script or a CI job.')
    .version(
      `contacts version ${VERSION} (Node.js ${process.version}; ${process.platform} ${process.arch})`,
      '-V, --version',
      'print the version, and the Node.js version and platform',
    )
    .helpOption('-h, --help', 'show help for a command')
    .addOption(
      new Option(
        '-o, --output <format>',
        'output format (default: table on a terminal, json otherwise)',
      ).choices(OUTPUT_FORMATS),
    )
    .option('--profile <name>', 'configuration profile (env: CONTACTS_PROFILE)')
    .option('--base-url <url>', 'API base URL (env: CONTACTS_BASE_URL)')
    .option(
      '--insecure-http',
      'allow an http:// base URL to another machine: the key travels unencrypted (env: CONTACTS_INSECURE_HTTP=1)',
    )
    .option('--mock', 'run against an embedded mock kept in ./.contacts-mock (env: CONTACTS_MOCK=1)')
    .option('--debug', 'print each request and response (key redacted) and error details to stderr')
    .option(
      '--max-retries <n>',
      'retries of a failed request: 429, 5xx, connection failures (env: CONTACTS_MAX_RETRIES; default 2, import 10)',
    )
    .option(
      '--timeout <duration>',
      'how long each attempt waits for the service: 30s, 500ms, 2m (env: CONTACTS_TIMEOUT; default 30s)',
    )
    .option('-q, --quiet', 'print only data: no progress, notes or warnings')
    .option('--no-color', 'disable colors (also NO_COLOR)')
    .option('--no-truncate', 'tables print every character instead of fitting the terminal')
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
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

  program
    .command('list')
    .alias('ls')
    .description("list the agent's contacts, oldest first")
    .addOption(agentOption())
    .option('-p, --page <n>', 'page number', integer(1))
    .option(
      '--per-page <n>',
      `contacts per page (${PER_PAGE_MIN} to ${PER_PAGE_MAX})`,
      integer(PER_PAGE_MIN, PER_PAGE_MAX),
    )
    .option('--all', 'stream every page')
    .action(lazy(io, async () => (await contactCommands()).list));

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
  ).action(lazy(io, async () => (await contactCommands()).upsert));

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

  program
    .command('delete')
    .alias('rm')
    .description('delete a contact, or every contact a file names (--from)')
    .argument('[id]', 'external_id or the service id')
    .addOption(agentOption())
    .option(
      '--from <file>',
      'delete every contact the file names: a CSV/JSON/NDJSON with external_id (an import or results file), or one id a line; - for stdin',
    )
    .option('--dry-run', 'with --from: say what would be deleted, delete nothing')
    .option('-y, --yes', 'do not ask for confirmation (required when not on a terminal)')
    .action(lazy(io, async () => (await contactCommands()).remove));

  program
    .command('import')
    .description('upsert every row of a CSV, JSON or NDJSON file by external_id')
    .argument('<file>', 'the file to import, or - for stdin')
    .addOption(agentOption())
    .addOption(
      new Option('--format <format>', 'input format (default: from the extension, else sniffed)').choices(
        FORMAT_NAMES,
      ),
    )
    .option('--delimiter <char>', 'CSV delimiter: "," ";" or tab (default: detected)')
    .addOption(defaultCountryOption())
    .option(
      '--encoding <name>',
      'text encoding of the file, e.g. windows-1252, latin1, utf-16le (default: UTF-8, or UTF-16 by its BOM)',
    )
    .option(
      '--map <header=field>',
      'map a column: external_id, name, first_name, last_name, email, phonenumber, country, attr.<name>, or - to ignore (repeatable; several phonenumber columns are tried in the order given)',
      collect,
    )
    .option(
      '--map-file <file>',
      'a saved mapping: a JSON object {"Header": "field"}; --map flags override its entries',
    )
    .option(
      '--concurrency <n>',
      'requests in flight at most (default 64); below it the import finds what the link takes',
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
      ).choices(['mdy', 'dmy']),
    )
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
    .option(
      '--dry-run',
      'check every row against the directory and report what would be created, updated or left unchanged; write nothing',
    )
    .option(
      '--diff',
      'with --dry-run: list each row that would change, field: old -> new (-o ndjson: one object a row)',
    )
    .addHelpText(
      'after',
      `
The exports of HubSpot, Salesforce (reports and Data Loader), Mailchimp, Google Contacts,
Outlook, Shopify, Stripe, Pipedrive, Zoho CRM, Intercom and Klaviyo are recognised by their header and import as
they are: the first line names the export and the mapping. Other files: columns are matched to
fields ignoring case, spaces, _ and -, with the usual synonyms (External ID, User ID, Customer ID,
ID; Name, Full Name, First Name + Last Name; Email, E-mail, Email Address; Phone, Phone Number,
Mobile, Telephone, Tel: every phone column is tried in turn). Without an id column the email is
the key. A column named after a defined custom attribute, or attr.<name>, fills that attribute.
JSON and NDJSON records use the API's field names, with custom_attributes nested.

A national phone number is placed in the row's country column, else --default-country, else the
one country of the file's international numbers it is valid in. A phone or attribute value that
cannot be read goes to the fixes file and the contact lands without it (--strict rejects the row).

Exit codes: 0 every row landed (some perhaps without a field: see the fixes file), 8 some rows
were rejected (see the rejects file), 130 interrupted.

Examples:
  $ contacts import customers.csv --agent my-agent
  $ contacts import export.csv --map "Client Ref=external_id" --map "Notes=-"
  $ contacts import contacts.ndjson --batch-size 500
  $ contacts import big.csv --resume           # after a crash or Ctrl-C
  $ cat contacts.ndjson | contacts import - --format ndjson`,
    )
    .action(lazy(io, async () => (await import('./commands/import.js')).importFile));

  program
    .command('template')
    .description("print the import file to fill: the contact fields and the agent's attributes")
    .addOption(agentOption())
    .option(
      '--from <file>',
      'print instead the mapping file (for import --map-file) the importer makes of this file: its export recognised, each column and what it fills',
    )
    .addHelpText(
      'after',
      `
The columns are named as the importer maps them without --map, so a filled template imports as
is. -o csv (default), json or ndjson.

With --from, the mapping file the importer makes of an export (JSON, {"Header": "field"}; "-"
for a column it leaves out; phone columns in the order they are tried): edit it, then pass it to
import --map-file.

Examples:
  $ contacts template --agent my-agent > contacts.csv   # fill it, then:
  $ contacts import contacts.csv --agent my-agent
  $ contacts template --from hubspot.csv > hubspot-map.json
  $ contacts import hubspot.csv --map-file hubspot-map.json`,
    )
    .action(lazy(io, async () => (await import('./commands/template.js')).template));

  program
    .command('export')
    .description('write every contact of the agent as CSV (importable again as is), JSON or NDJSON')
    .addOption(agentOption())
    .option(
      '--out <file>',
      'write to this file (atomically) instead of stdout; its extension picks the format',
    )
    .addHelpText('after', '\nThe format is -o csv|json|ndjson, else the --out extension, else csv.')
    .action(lazy(io, async () => (await import('./commands/export.js')).exportContacts));

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
  auth
    .command('login')
    .description('store a bk_ workspace key (hidden prompt, or stdin with --with-key)')
    .option('--with-key', 'read the key from stdin, e.g. `contacts auth login --with-key < key.txt`')
    .addOption(agentOption())
    .addHelpText(
      'after',
      `
The key is stored in the profile named by --profile (default: "default"), with --base-url if given.
When an agent is known (--agent, CONTACTS_AGENT or the profile), the key is checked first with one
call to the service: a key it refuses is not stored (exit 3). Otherwise it is stored unverified.`,
    )
    .action(lazy(io, async () => (await authCommands()).login));
  auth
    .command('status')
    .description('show the base URL, profile and key in use (masked), and where each came from')
    .action(lazy(io, async () => (await authCommands()).status));
  auth
    .command('logout')
    .description("remove the profile's stored key (--profile picks the profile)")
    .action(lazy(io, async () => (await authCommands()).logout));

  const config = program
    .command('config')
    .description('read and change settings: base-url, agent, output, default-country');
  config
    .command('get')
    .description('print one setting of the profile')
    .argument('<key>', 'base-url, agent, output or default-country')
    .action(lazy(io, async () => (await configCommands()).get));
  config
    .command('set')
    .description('change one setting of the profile')
    .argument('<key>', 'base-url, agent, output or default-country')
    .argument('<value>', 'the new value')
    .action(lazy(io, async () => (await configCommands()).set));
  config
    .command('unset')
    .description('remove one setting from the profile')
    .argument('<key>', 'base-url, agent, output or default-country')
    .action(lazy(io, async () => (await configCommands()).unset));
  config
    .command('list')
    .description("list the profile's settings and the config file's path")
    .action(lazy(io, async () => (await configCommands()).list));

  program
    .command('serve')
    .description('run a local mock of the Contacts API for offline work and tests: contacts serve --mock')
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
      "serve requests for this host name too (repeatable; .example.com for its subdomains, * for any); loopback names, IP addresses and this machine's name are always served, other names get 421",
      collect,
    )
    .option(
      '--cors <origin>',
      'let web pages from this origin call the mock, e.g. http://localhost:3000 (repeatable; * for any); none by default',
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
    .option('--no-rate-limit-headers', 'answer 429s with Retry-After only, without X-RateLimit-* headers')
    .action(lazy(io, async () => (await import('./commands/serve.js')).serve));

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
      let cmd: Command = program;
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

  return program;
}
