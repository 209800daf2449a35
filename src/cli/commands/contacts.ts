// `contacts list|get|upsert|update|delete`: thin commands over client.contacts.
import type { Contact, ContactInput, ContactPatch } from '../../api/contact.js';
import type { CommandContext } from '../context.js';
import { UsageError } from '../errors.js';
import { writeContact, writeContacts } from '../output/render.js';
import { confirm } from '../prompt.js';
import { contactBody, type FieldOptions } from './contact-input.js';

export async function list(ctx: CommandContext, opts: { page?: number; perPage?: number; all?: boolean }) {
  if (opts.all && opts.page !== undefined) throw new UsageError('--all and --page cannot be used together');
  const [client, agentId, format] = await Promise.all([ctx.client(), ctx.agent(), ctx.format()]);
  const table = ctx.io.table;

  if (!opts.all) {
    const page = await client.contacts.list({ agentId, page: opts.page, perPage: opts.perPage });
    await writeContacts(ctx.io.stdout, format, page.data, table);
    if (page.total === 0) ctx.io.note(`No contacts for agent ${agentId}.`);
    else if (page.hasNextPage()) {
      const next = ctx.commandLine(['list', '--agent', agentId, '--page', String(page.page + 1)], {
        '--per-page': opts.perPage === undefined ? undefined : String(opts.perPage),
      });
      ctx.io.note(
        `Page ${page.page} of ${page.totalPages} (${page.total} contacts). Next: ${next}  (or --all)`,
      );
    }
    return;
  }

  // CSV streams only when its columns are known up front: every attribute, archived too.
  const attributeNames =
    format === 'csv' ? (await client.attributes.list({ agentId })).map((d) => d.name) : undefined;
  const spinner = await ctx.io.spinner('Fetching contacts…');
  let fetched = 0;
  async function* contacts(): AsyncGenerator<Contact> {
    for await (const page of client.contacts.pages({ agentId, perPage: opts.perPage ?? 1000 })) {
      fetched += page.data.length;
      spinner.update(`Fetching contacts… ${fetched} of ${page.total}`);
      yield* page.data;
    }
  }
  try {
    const summary = await writeContacts(ctx.io.stdout, format, contacts(), { ...table, attributeNames });
    spinner.stop();
    ctx.io.note(summary.count === 0 ? `No contacts for agent ${agentId}.` : `${summary.count} contacts.`);
  } catch (err) {
    spinner.fail();
    throw err;
  }
}

export async function get(ctx: CommandContext, id: string) {
  const [client, agentId, format] = await Promise.all([ctx.client(), ctx.agent(), ctx.format()]);
  const contact = await client.contacts.get(id, { agentId });
  await writeContact(ctx.io.stdout, format, contact, ctx.io.table);
}

/** The agent's definitions, fetched once and only when a command needs them (`--attr`). */
function definitionsOf(ctx: CommandContext) {
  return async () => {
    const [client, agentId] = await Promise.all([ctx.client(), ctx.agent()]);
    return client.attributes.list({ agentId });
  };
}

export async function upsert(ctx: CommandContext, opts: FieldOptions) {
  const { defaultCountry } = await ctx.settings();
  const body = await contactBody(opts, {
    stdin: ctx.io.stdin,
    cwd: ctx.cwd,
    defaultCountry,
    definitions: definitionsOf(ctx),
  });
  if (typeof body.external_id !== 'string' || body.external_id.trim() === '') {
    throw new UsageError('An external_id is required', {
      hint: 'Pass --external-id <id>, or include "external_id" in --data.',
    });
  }
  const [client, agentId, format] = await Promise.all([ctx.client(), ctx.agent(), ctx.format()]);
  const { contact, created } = await client.contacts.upsert(body as ContactInput, { agentId });
  ctx.io.note(`${created ? 'Created' : 'Updated'} contact ${contact.external_id} (${contact.id}).`);
  await writeContact(ctx.io.stdout, format, contact, ctx.io.table);
}

export async function update(ctx: CommandContext, id: string, opts: FieldOptions) {
  const { defaultCountry } = await ctx.settings();
  const body = await contactBody(opts, {
    stdin: ctx.io.stdin,
    cwd: ctx.cwd,
    defaultCountry,
    definitions: definitionsOf(ctx),
  });
  if (Object.keys(body).length === 0) {
    throw new UsageError('Nothing to change', {
      hint: 'Pass at least one of --name, --email, --phone, --attr, --stripe-account, --unset, --external-id or --data.',
    });
  }
  const [client, agentId, format] = await Promise.all([ctx.client(), ctx.agent(), ctx.format()]);
  const contact = await client.contacts.update(id, body as ContactPatch, { agentId });
  ctx.io.note(`Updated contact ${contact.external_id} (${contact.id}).`);
  await writeContact(ctx.io.stdout, format, contact, ctx.io.table);
}

export async function remove(ctx: CommandContext, id: string, opts: { yes?: boolean }) {
  const agentId = await ctx.agent();
  if (!opts.yes) {
    if (!ctx.io.isTTY.stdin || !ctx.io.isTTY.stderr) {
      throw new UsageError(`Refusing to delete ${id} without confirmation`, {
        hint: 'Not on a terminal: pass --yes to delete without asking.',
      });
    }
    if (!(await confirm(`Delete contact ${id} of agent ${agentId}?`, ctx.io))) {
      ctx.io.note('Nothing deleted.');
      return;
    }
  }
  const [client, format] = await Promise.all([ctx.client(), ctx.format()]);
  const deleted = await client.contacts.delete(id, { agentId });
  ctx.io.note(`Deleted contact ${deleted?.external_id ?? id}.`);
  // A person has the note; a script gets the deleted record to log or undo from.
  if (deleted && format !== 'table') await writeContact(ctx.io.stdout, format, deleted);
}
