// `contacts attrs list|define|update`: thin commands over client.attributes.
import type { AttributeDefinition, AttributeType, AttributeUpdate } from '../../api/attribute.js';
import { ConflictError } from '../../client/errors.js';
import type { CommandContext } from '../context.js';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { writeAttributeDefinition, writeAttributeDefinitions } from '../output/render.js';

export async function list(ctx: CommandContext) {
  const [client, agentId, format] = await Promise.all([ctx.client(), ctx.agent(), ctx.format()]);
  const definitions = await client.attributes.list({ agentId });
  await writeAttributeDefinitions(ctx.io.stdout, format, definitions, ctx.io.table);
  if (definitions.length === 0) {
    ctx.io.note(
      `No custom attributes for agent ${agentId}. Define one: contacts attrs define <name> --type text`,
    );
  }
}

export async function define(
  ctx: CommandContext,
  name: string,
  opts: { type: AttributeType; label?: string; description?: string; ifNotExists?: boolean },
) {
  const [client, agentId, format] = await Promise.all([ctx.client(), ctx.agent(), ctx.format()]);
  let definition: AttributeDefinition;
  try {
    definition = await client.attributes.define(
      { name, type: opts.type, label: opts.label, description: opts.description },
      { agentId },
    );
    ctx.io.note(`Defined ${definition.type} attribute ${definition.name}.`);
  } catch (err) {
    if (!(err instanceof ConflictError)) throw err;
    const existing = (await client.attributes.list({ agentId })).find((d) => d.name === name);
    if (!existing) throw err;
    if (existing.archived) {
      // Archived names stay taken (their values are kept): say so, and the two ways on.
      throw new CliError(`Attribute ${name} already exists, archived (type ${existing.type})`, {
        exitCode: ExitCode.CONFLICT,
        hint: `Bring it back with \`contacts attrs update ${name} --unarchive\`, or define the new one under another name.`,
      });
    }
    if (!opts.ifNotExists) {
      throw new CliError(`Attribute ${name} already exists (type ${existing.type})`, {
        exitCode: ExitCode.CONFLICT,
        hint: 'Pass --if-not-exists to succeed when it exists with the same type (for seeding scripts).',
      });
    }
    // Idempotent for seeding scripts: the same name and type is success, another type is not.
    if (existing.type !== opts.type) {
      throw new CliError(`Attribute ${name} already exists with type ${existing.type}, not ${opts.type}`, {
        exitCode: ExitCode.CONFLICT,
      });
    }
    definition = existing;
    ctx.io.note(`Attribute ${name} already exists (${existing.type}).`);
  }
  await writeAttributeDefinition(ctx.io.stdout, format, definition, ctx.io.table);
}

export async function update(
  ctx: CommandContext,
  name: string,
  opts: { label?: string; description?: string; archive?: boolean; unarchive?: boolean },
) {
  const changes: AttributeUpdate = {};
  if (opts.label !== undefined) changes.label = opts.label;
  if (opts.description !== undefined) changes.description = opts.description;
  if (opts.archive) changes.archived = true;
  if (opts.unarchive) changes.archived = false;
  if (Object.keys(changes).length === 0) {
    throw new UsageError('Nothing to change', {
      hint: 'Pass --label, --description, --archive or --unarchive.',
    });
  }
  const [client, agentId, format] = await Promise.all([ctx.client(), ctx.agent(), ctx.format()]);
  const definition = await client.attributes.update(name, changes, { agentId });
  ctx.io.note(`Updated attribute ${definition.name}${definition.archived ? ' (archived)' : ''}.`);
  await writeAttributeDefinition(ctx.io.stdout, format, definition, ctx.io.table);
}
