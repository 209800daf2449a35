// `contacts list`, `get`, `upsert`, `update` and `delete`: their declarations. The runs,
// ./contacts.ts, are loaded only when a command runs.
import { type Command, Option, type OptionValues } from '@commander-js/extra-typings';
import { PER_PAGE_MAX, PER_PAGE_MIN } from '../../api/limits.js';
import { agentCommand, lazy, type OptionsOf, type Parent, settingOption } from '../command.js';
import type { CliIo } from '../io.js';
import { collect, collectAttr, collectStripeAccount, integer } from '../options.js';

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
    .addOption(settingOption('default-country'))
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

/** `contacts list`; `ListCommandOptions` is read from here. */
function declareList(parent: Parent) {
  return agentCommand(parent, 'list')
    .alias('ls')
    .description("list the agent's contacts, oldest first")
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

export type ListCommandOptions = OptionsOf<typeof declareList>;

/** `contacts delete`; `DeleteCommandOptions` is read from here. */
function declareDelete(parent: Parent) {
  return agentCommand(parent, 'delete')
    .alias('rm')
    .description('delete a contact, or every contact a file names (--from)')
    .argument('[id]', 'external_id or the service id')
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

export type DeleteCommandOptions = OptionsOf<typeof declareDelete>;

export function contactCommands(program: Parent, io: CliIo): void {
  declareList(program).action(lazy(io, async () => (await import('./contacts.js')).list));

  agentCommand(program, 'get')
    .description('show one contact')
    .argument('<id>', 'external_id or the service id')
    .action(lazy(io, async () => (await import('./contacts.js')).get));

  fieldOptions(
    agentCommand(program, 'upsert')
      .description('create a contact, or update the one with the same external_id')
      .option('-e, --external-id <id>', "your system's id for the contact (required, here or in --data)"),
  )
    // Not an upsert option: taken only to say that `update` clears fields.
    .addOption(new Option('--unset <field>').hideHelp().argParser(collect))
    .action(lazy(io, async () => (await import('./contacts.js')).upsert));

  fieldOptions(
    agentCommand(program, 'update')
      .description("change some of a contact's fields (the rest keep their values)")
      .argument('<id>', 'external_id or the service id')
      .option('-e, --external-id <id>', 'give the contact a new external_id'),
  )
    .option(
      '--unset <field>',
      'clear a field: name, email, phone, stripe_accounts or attr.<name> (repeatable)',
      collect,
    )
    .action(lazy(io, async () => (await import('./contacts.js')).update));

  declareDelete(program).action(lazy(io, async () => (await import('./contacts.js')).remove));
}
