// `contacts list|get|upsert|update|delete`: thin commands over client.contacts.

import type { Contact, ContactInput, ContactPatch } from '../../api/contact.js';
import { PER_PAGE_MAX } from '../../api/limits.js';
import type { ContactsClient } from '../../client/client.js';
import { AgentNotFoundError, InconsistentListError, NotFoundError } from '../../client/errors.js';
import type { CommandContext } from '../context.js';
import { CliError, ExitCode, listChangedError, UsageError } from '../errors.js';
import { parseContactColumns } from '../output/contact-columns.js';
import { plural } from '../output/plural.js';
import { writeContact, writeContacts, writeRecord } from '../output/render.js';
import type { FieldOptions } from './contact-input.js';
import type { DeleteCommandOptions, ListCommandOptions } from './contacts-command.js';

export async function list(ctx: CommandContext, opts: ListCommandOptions) {
  if (opts.all && opts.page !== undefined) throw new UsageError('--all and --page cannot be used together');
  const columns = opts.columns === undefined ? undefined : parseContactColumns(opts.columns);
  const [client, agentId, format] = await Promise.all([ctx.client(), ctx.agent(), ctx.format()]);
  if (columns && format !== 'table') {
    throw new UsageError(`--columns chooses a table's columns, not those of -o ${format}`, {
      hint: `-o table draws the table; -o ${format} has every field (pick some with ${format === 'csv' ? 'csvcut' : 'jq'}).`,
    });
  }
  const table = { ...ctx.io.table, columns };

  if (!opts.all) {
    const [page, attributeNames] = await Promise.all([
      client.contacts.list({ agentId, page: opts.page, perPage: opts.perPage }),
      csvAttributeColumns(client, agentId, format),
    ]);
    await writeContacts(ctx.io.stdout, format, page.data, { ...table, attributeNames });
    if (page.total === 0) await ctx.noteAboutAgent((why) => `No contacts for agent ${agentId}${why}.`);
    else if (page.hasNextPage()) {
      const next = ctx.commandLine(['list', '--agent', agentId, '--page', String(page.page + 1)], {
        '--per-page': opts.perPage === undefined ? undefined : String(opts.perPage),
      });
      ctx.io.note(
        `Page ${page.page} of ${page.totalPages} (${plural(page.total, 'contact')}). Next: ${next}  (or --all)`,
      );
    }
    return;
  }

  // CSV streams only when its columns are known up front: every attribute, archived too.
  const attributeNames = await csvAttributeColumns(client, agentId, format);
  const spinner = await ctx.io.spinner('Fetching contacts…');
  let fetched = 0;
  async function* contacts(): AsyncGenerator<Contact> {
    for await (const page of client.contacts.pages({ agentId, perPage: opts.perPage ?? PER_PAGE_MAX })) {
      fetched += page.data.length;
      spinner.update(`Fetching contacts… ${fetched} of ${page.total}`);
      yield* page.data;
    }
  }
  try {
    const summary = await writeContacts(ctx.io.stdout, format, contacts(), { ...table, attributeNames });
    spinner.stop();
    if (summary.count === 0) await ctx.noteAboutAgent((why) => `No contacts for agent ${agentId}${why}.`);
    else ctx.io.note(`${plural(summary.count, 'contact')}.`);
  } catch (err) {
    spinner.fail();
    // Rows already on stdout cannot be taken back: the list is not read again, the run fails.
    if (err instanceof InconsistentListError) throw listChangedError(err, undefined);
    throw err;
  }
}

/**
 * A contact id from the command line, as upsert stores one: the contract trims an external_id
 * (ExternalIdSchema), so `get " pad "` finds what `upsert --external-id " pad "` stored.
 */
function contactId(id: string): string {
  const trimmed = id.trim();
  if (trimmed === '') throw new UsageError('The contact id is empty: give its external_id or id');
  return trimmed;
}

export async function get(ctx: CommandContext, given: string) {
  const id = contactId(given);
  const [client, agentId, format] = await Promise.all([ctx.client(), ctx.agent(), ctx.format()]);
  const [contact, attributeNames] = await Promise.all([
    client.contacts.get(id, { agentId }),
    csvAttributeColumns(client, agentId, format),
  ]);
  await writeContact(ctx.io.stdout, format, contact, { ...ctx.io.table, attributeNames });
}

/**
 * CSV's attribute columns: every attribute of the agent (archived too), in definition order,
 * the same for `get`, `list` and `export`. Asked only for CSV.
 */
async function csvAttributeColumns(
  client: ContactsClient,
  agentId: string,
  format: string,
): Promise<string[] | undefined> {
  if (format !== 'csv') return undefined;
  return (await client.attributes.list({ agentId })).map((d) => d.name);
}

/**
 * The request body from the field flags and --data, in the command's setting: national phone
 * numbers read in the default country, `--attr` values typed with the agent's definitions
 * (fetched only when `--attr` is used).
 */
async function bodyOf(ctx: CommandContext, opts: FieldOptions) {
  const [{ defaultCountry }, { contactBody }] = await Promise.all([
    ctx.settings(),
    import('./contact-input.js'),
  ]);
  return contactBody(opts, {
    stdin: ctx.io.stdin,
    cwd: ctx.cwd,
    defaultCountry,
    warn: (message) => ctx.io.warn(message),
    definitions: async () => {
      const [client, agentId] = await Promise.all([ctx.client(), ctx.agent()]);
      return client.attributes.list({ agentId });
    },
  });
}

export async function upsert(ctx: CommandContext, opts: FieldOptions) {
  if (opts.unset !== undefined) {
    const id = opts.externalId ?? '<id>';
    throw new UsageError('upsert sets fields; it does not clear them (no --unset)', {
      hint: `To clear a field, update the contact: contacts update ${id} ${opts.unset.map((f) => `--unset ${f}`).join(' ')}`,
    });
  }
  const body = await bodyOf(ctx, opts);
  if (typeof body.external_id !== 'string' || body.external_id.trim() === '') {
    throw new UsageError('An external_id is required', {
      hint: 'Pass --external-id <id>, or include "external_id" in --data.',
    });
  }
  const [client, agentId, format] = await Promise.all([ctx.client(), ctx.agent(), ctx.format()]);
  const { contact, created } = await client.contacts.upsert(body as ContactInput, { agentId });
  ctx.io.note(`${created ? 'Created' : 'Updated'} contact ${contact.external_id} (${contact.id}).`);
  const attributeNames = await csvAttributeColumns(client, agentId, format);
  await writeContact(ctx.io.stdout, format, contact, { ...ctx.io.table, attributeNames });
}

export async function update(ctx: CommandContext, given: string, opts: FieldOptions) {
  const id = contactId(given);
  const body = await bodyOf(ctx, opts);
  if (Object.keys(body).length === 0) {
    throw new UsageError('Nothing to change', {
      hint: 'Pass at least one of --name, --email, --phone, --attr, --stripe-account, --unset, --external-id or --data.',
    });
  }
  const [client, agentId, format] = await Promise.all([ctx.client(), ctx.agent(), ctx.format()]);
  const contact = await client.contacts.update(id, body as ContactPatch, { agentId });
  ctx.io.note(`Updated contact ${contact.external_id} (${contact.id}).`);
  const attributeNames = await csvAttributeColumns(client, agentId, format);
  await writeContact(ctx.io.stdout, format, contact, { ...ctx.io.table, attributeNames });
}

export async function remove(ctx: CommandContext, given: string | undefined, opts: DeleteCommandOptions) {
  const id = given === undefined ? undefined : contactId(given);
  if (opts.from !== undefined) {
    if (id !== undefined) throw new UsageError('Give a contact id or --from FILE, not both');
    return teardown(ctx, opts.from, opts);
  }
  if (opts.includeUpdated) throw new UsageError('--include-updated applies to --from FILE (a results file)');
  // A dry run of one contact would otherwise delete it.
  if (opts.dryRun)
    throw new UsageError('--dry-run applies to --from FILE; `contacts get ID` shows the contact');
  if (id === undefined) {
    throw new UsageError('Which contact? Give its id, or --from FILE for every contact a file names', {
      hint: 'contacts delete u_42, or contacts delete --from results.csv',
    });
  }
  const agentId = await ctx.agent();
  if (!opts.yes) {
    ctx.mayPrompt(`Delete contact ${id}?`, {
      flag: '--yes',
      hint: ctx.commandLine(['delete', id, '--yes'], { '--agent': ctx.options.agent }),
    });
    if (!ctx.io.isTTY.stdin || !ctx.io.isTTY.stderr) {
      throw new UsageError(`Refusing to delete ${id} without confirmation`, {
        hint: 'Not on a terminal: pass --yes to delete without asking.',
      });
    }
    const { confirm } = await import('../prompt.js');
    if (!(await confirm(`Delete contact ${id} of agent ${agentId}?`, ctx.io))) {
      ctx.io.note('Nothing deleted.');
      return;
    }
  }
  const [client, format] = await Promise.all([ctx.client(), ctx.format()]);
  let deleted: Contact | null;
  try {
    deleted = await client.contacts.delete(id, { agentId });
  } catch (error) {
    // Only the contact may be missing: an unknown agent is still an error (a typo, or the wrong service).
    if (!opts.missingOk || !(error instanceof NotFoundError) || error instanceof AgentNotFoundError)
      throw error;
    ctx.io.note(`Contact ${id} of agent ${agentId} is already gone.`);
    return;
  }
  ctx.io.note(`Deleted contact ${deleted?.external_id ?? id}.`);
  // A person has the note; a script gets the deleted record to log or undo from.
  if (deleted && format !== 'table') await writeContact(ctx.io.stdout, format, deleted);
}

/**
 * `contacts delete --from FILE|-`: every contact the file names (an import file, its results
 * file, or one id a line), deleted under the import's scheduler and retries. A contact already
 * gone counts as done, so it can run twice.
 */
async function teardown(ctx: CommandContext, from: string, opts: DeleteCommandOptions) {
  const [{ readTeardownIds }, { runTeardown, TeardownStoppedError }] = await Promise.all([
    import('../../importer/teardown-ids.js'),
    import('../../bulk/teardown.js'),
  ]);
  const { resolve } = await import('node:path');
  const input = from === '-' ? '-' : resolve(ctx.cwd, from);
  const [agentId, format] = await Promise.all([ctx.agent(), ctx.format()]);
  let read: Awaited<ReturnType<typeof readTeardownIds>>;
  try {
    read = await readTeardownIds(input, {
      stdin: ctx.io.stdin,
      includeUpdated: opts.includeUpdated,
      // A table is mapped as its import mapped it, with the agent's attributes.
      definitions: async () => (await ctx.client()).attributes.list({ agentId }),
    });
  } catch (error) {
    // The importer's readers say what is wrong with the file; the way on names our flags.
    const [{ ImportError }, { importUsageError }] = await Promise.all([
      import('../../importer/errors.js'),
      import('../output/import-words.js'),
    ]);
    throw error instanceof ImportError && error.code !== undefined ? importUsageError(error, false) : error;
  }
  const { ids, updatedLeft } = read;
  const what = `${plural(ids.length, 'contact')} of agent ${agentId} named in ${from === '-' ? 'stdin' : from}`;
  const left = updatedLeft.length;
  if (left > 0) {
    ctx.io.note(
      left === 1
        ? '1 updated contact left: it existed before the import; contacts undo restores it'
        : `${left} updated contacts left: they existed before the import; contacts undo restores them`,
    );
  }
  if (opts.dryRun) {
    ctx.io.note(`Would delete ${what}.`);
    if (format === 'table') for (const entry of ids) ctx.io.stdout.write(`${entry.id}\n`);
    else
      await writeRecord(ctx.io.stdout, format, {
        would_delete: ids.length,
        ids: ids.map((e) => e.id),
        updated_left: left,
      });
    return;
  }
  if (!opts.yes) {
    ctx.mayPrompt(`Delete ${what}?`, {
      flag: '--yes',
      hint: `${ctx.commandLine(['delete', '--from', from, '--yes'], { '--agent': ctx.options.agent })} (or --dry-run to see the list first)`,
    });
    // stdin as the file leaves no terminal to answer on.
    if (from === '-' || !ctx.io.isTTY.stdin || !ctx.io.isTTY.stderr) {
      throw new UsageError(`Refusing to delete ${what} without confirmation`, {
        hint: 'Not on a terminal: pass --yes to delete without asking (or --dry-run to see the list).',
      });
    }
    const { confirm } = await import('../prompt.js');
    if (!(await confirm(`Delete ${what}?`, ctx.io))) {
      ctx.io.note('Nothing deleted.');
      return;
    }
  }
  const [client, { maxRetries }] = await Promise.all([ctx.client(), ctx.settings()]);
  const controller = new AbortController();
  const stop = ctx.onInterrupt(() => controller.abort());
  const spinner = await ctx.io.spinner(`Deleting ${plural(ids.length, 'contact')}…`);
  let report: Awaited<ReturnType<typeof runTeardown>>;
  try {
    report = await runTeardown({
      client,
      agentId,
      ids,
      // --max-retries (else the bulk commands' default, not a single call's).
      ...(maxRetries === undefined ? {} : { maxRetries }),
      signal: controller.signal,
      onProgress: (r) =>
        spinner.update(`${r.deleted + r.notFound + r.failed} of ${r.ids} done, ${r.failed} failed`),
    });
  } catch (error) {
    spinner.stop();
    if (error instanceof TeardownStoppedError) {
      const r = error.report;
      ctx.io.failure(
        `${r.deleted} deleted, ${r.notFound} already gone before it stopped; run it again to finish.`,
      );
      throw error.cause;
    }
    throw error;
  } finally {
    stop();
  }
  spinner.stop();
  for (const f of report.failures) ctx.io.failure(`line ${f.line}: ${f.id}: ${f.reason}`);
  ctx.io.note(
    `${report.interrupted ? 'Interrupted' : 'Done'} in ${(report.durationMs / 1000).toFixed(1)}s: ` +
      `${report.deleted} deleted, ${report.notFound} already gone, ${report.failed} failed.`,
  );
  if (ctx.options.output || !ctx.io.isTTY.stdout) {
    await writeRecord(ctx.io.stdout, format, {
      ids: report.ids,
      deleted: report.deleted,
      not_found: report.notFound,
      failed: report.failed,
      interrupted: report.interrupted,
      updated_left: left,
    });
  }
  if (report.interrupted)
    throw new CliError('Teardown interrupted', { exitCode: ExitCode.INTERRUPTED, silent: true });
  if (report.failed > 0)
    throw new CliError(`${report.failed} failed`, { exitCode: ExitCode.PARTIAL, silent: true });
}
