// `contacts template`: the import file to fill for an agent: the contact fields and every
// attribute that takes values, named as the importer maps them without --map.
import type { AttributeDefinition } from '../../api/attribute.js';
import { type AtomicFile, openAtomicFile, writeFileAtomic } from '../../util/write-file-atomic.js';
import type { CommandContext } from '../context.js';
import { UsageError } from '../errors.js';
import type { OutStream } from '../io.js';
import { writeRecords } from '../output/render.js';
import { checkedOut, exportFormat } from './export.js';

const FIELDS = ['external_id', 'name', 'email', 'phonenumber', 'stripe_accounts'] as const;

export async function template(ctx: CommandContext, opts: { out?: string; from?: string } = {}) {
  if (opts.from !== undefined) return mappingFile(ctx, opts.from, opts.out);
  const format = exportFormat('template', ctx.options.output, opts.out);
  if (format === 'xlsx' && !opts.out && ctx.io.isTTY.stdout) {
    throw new UsageError('A workbook is not text for a terminal', {
      hint: 'Pass --out contacts.xlsx, or redirect stdout to a file.',
    });
  }
  // Before the service (or the embedded mock, which opens its database) is started.
  const target = opts.out ? await checkedOut(ctx, opts.out, 'the template') : undefined;
  const [client, agentId] = await Promise.all([ctx.client(), ctx.agent()]);
  const definitions = (await client.attributes.list({ agentId })).filter((d) => !d.archived);
  let file: AtomicFile | undefined;
  try {
    file = target ? await openAtomicFile(target) : undefined;
    await write(ctx, format, definitions, file);
    await file?.commit();
  } catch (error) {
    await file?.abort();
    throw error;
  }
  const where = opts.out ?? '<file>';
  ctx.io.note(
    format === 'csv' || format === 'xlsx'
      ? `Fill one row per contact under the header, then: contacts import ${where} --agent ${agentId}`
      : 'Replace the example with one object per contact (external_id is required), then import it.',
  );
}

async function write(
  ctx: CommandContext,
  format: 'csv' | 'json' | 'ndjson' | 'xlsx',
  definitions: readonly AttributeDefinition[],
  file: AtomicFile | undefined,
): Promise<void> {
  if (format === 'xlsx') {
    const { outStreamSink, writeWorkbook } = await import('../output/workbook.js');
    const columns = await csvColumns(definitions);
    const kinds = new Map(definitions.map((d) => [d.name, d.type]));
    const sink = file ? { write: (chunk: Uint8Array) => file.write(chunk) } : outStreamSink(ctx.io.stdout);
    await writeWorkbook(
      sink,
      'Contacts',
      columns.map((header) => {
        const type = kinds.get(header.replace(/^attr\./, ''));
        return { header, kind: type === 'text' || type === undefined ? 'text' : type };
      }),
      [],
    );
    return;
  }
  const out: OutStream = file ? (file.stream() as unknown as OutStream) : ctx.io.stdout;
  if (format === 'csv') {
    const columns = await csvColumns(definitions);
    await writeRecords(out, 'csv', [], { columns });
    return;
  }
  // external_id is the one required field; the others stay null (not set) until filled, and
  // stripe_accounts is a list to fill: [{"label": "main", "stripe_id": "cus_..."}].
  const example: Record<string, unknown> = Object.fromEntries(
    FIELDS.map((f) => [f, f === 'external_id' ? '' : f === 'stripe_accounts' ? [] : null]),
  );
  if (definitions.length > 0) {
    // Text attributes take a string; the others a JSON number, boolean or ISO date (null: none).
    example.custom_attributes = Object.fromEntries(
      definitions.map((d) => [d.name, d.type === 'text' ? '' : null]),
    );
  }
  await writeRecords(out, format, [example]);
}

/**
 * The header: contact fields, then each attribute by its bare name when the importer maps that
 * name to it unaided, else as `attr.<name>` (an attribute called `phone` would map to the phone).
 */
async function csvColumns(definitions: readonly AttributeDefinition[]): Promise<string[]> {
  const { resolveMapping } = await import('../../importer/mapping.js');
  const header = [...FIELDS, ...definitions.map((d) => d.name)];
  const { columns } = resolveMapping({ header, definitions });
  return header.map((cell, i) => {
    if (i < FIELDS.length) return cell;
    const [target] = columns[i]!;
    return target?.kind === 'attribute' && target.name === cell ? cell : `attr.${cell}`;
  });
}

/**
 * `--from <file>`: the mapping the importer makes of the file's header, as a `--map-file`: every
 * column with what it fills (`-` when nothing), the phone and email columns in the order tried.
 */
async function mappingFile(ctx: CommandContext, file: string, out: string | undefined) {
  const { resolve } = await import('node:path');
  const path = file === '-' ? '-' : resolve(ctx.cwd, file);
  // Before the service is started; the file it reads is an input no output may replace.
  const target = out
    ? await checkedOut(
        ctx,
        out,
        'the mapping file',
        path === '-' ? [] : [{ path, what: 'the input (--from)' }],
      )
    : undefined;
  const [{ openSource }, { planImport }, { ImportError }, { importUsageError }, { summarizeMapping }] =
    await Promise.all([
      import('../../importer/sources/index.js'),
      import('../../importer/plan.js'),
      import('../../importer/errors.js'),
      import('../output/import-words.js'),
      import('../output/mapping-summary.js'),
    ]);
  const [client, agentId] = await Promise.all([ctx.client(), ctx.agent()]);
  const definitions = await client.attributes.list({ agentId });
  // The plan an import would make of the file: its columns mapped by their words and by the
  // values of its first rows, a JSON export the importer knows (Zendesk's users) by its keys.
  let plan: Awaited<ReturnType<typeof planImport>>;
  try {
    const source = await openSource(path, { stdin: ctx.io.stdin });
    try {
      plan = await planImport(source, { definitions });
    } finally {
      source.close();
    }
  } catch (error) {
    throw error instanceof ImportError ? importUsageError(error, false) : error;
  }
  if (plan.reading === 'records')
    throw new UsageError(`${file}: a mapping file is for CSV columns; JSON records use the field names`);
  if (plan.reading === 'vcard')
    throw new UsageError(
      `${file}: a vCard's fields come from its own properties (UID, FN, EMAIL, TEL): it imports without a mapping file`,
    );
  const mapping = plan.mapping!;
  const entries: [string, string][] = [];
  const put = (i: number) => {
    const header = mapping.header[i]!.trim();
    if (!header || entries.some(([h]) => h === header)) return;
    // A key taken from the email is the import's own rule (in lower case), not a mapping.
    const targets = mapping.columns[i]!.filter(
      (t) => !(mapping.keyFromEmail !== undefined && t.kind === 'field' && t.field === 'external_id'),
    ).map((t) => (t.kind === 'field' ? t.field : t.kind === 'attribute' ? `attr.${t.name}` : t.kind));
    if (mapping.countryColumns.includes(i) && !targets.includes('country')) targets.push('country');
    entries.push([header, targets.length > 0 ? targets.join(',') : '-']);
  };
  // The ordered columns first, in their order (a mapping file's entries keep theirs); then the rest.
  for (const i of [...mapping.emailColumns, ...mapping.phoneColumns, ...mapping.countryColumns]) put(i);
  for (let i = 0; i < mapping.header.length; i++) put(i);
  const text = `${JSON.stringify(Object.fromEntries(entries), null, 2)}\n`;
  if (target) await writeFileAtomic(target, text);
  else ctx.io.stdout.write(text);
  ctx.io.note(summarizeMapping(mapping));
  for (const decision of mapping.decisions) ctx.io.note(decision);
  ctx.io.note(
    `Edit it if need be, then: contacts import ${file} --map-file ${out ?? '<this file>'} --agent ${agentId}`,
  );
}
