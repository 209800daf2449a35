// `contacts export`: every contact of the agent, page by page, as CSV (importable again as is),
// JSON or NDJSON, to stdout or to a file written atomically.
import { extname, resolve } from 'node:path';
import { formatFromName } from '../../importer/format.js';
import { outputPathProblem } from '../../util/output-path.js';
import { type AtomicFile, openAtomicFile, resolveWriteTarget } from '../../util/write-file-atomic.js';
import type { CommandContext } from '../context.js';
import { UsageError } from '../errors.js';
import { writeContacts } from '../output/render.js';

export async function exportContacts(ctx: CommandContext, opts: { out?: string; raw?: boolean }) {
  const asked = ctx.options.output;
  if (!asked && opts.out && extname(opts.out).toLowerCase() === '.tsv') {
    throw new UsageError('export writes comma-separated CSV, not TSV', {
      hint: 'Name the file .csv, or pass -o csv.',
    });
  }
  // The same extensions the importer reads, so what export writes, import takes back.
  const format = asked ?? (opts.out ? formatFromName(opts.out) : undefined) ?? 'csv';
  if (format !== 'csv' && format !== 'json' && format !== 'ndjson') {
    throw new UsageError(`export writes csv, json or ndjson, not ${format}`, {
      hint: 'Pass -o csv, -o json or -o ndjson.',
    });
  }
  const [client, agentId] = await Promise.all([ctx.client(), ctx.agent()]);
  // Every attribute (archived too) gets a CSV column up front, so rows stream.
  const attributeNames = (await client.attributes.list({ agentId })).map((d) => d.name);

  // Through a symlink, as `cp` would: the file it points at is replaced, the link kept. Resolved
  // here too so the checks below look at that file and its directory.
  const target = opts.out ? await resolveWriteTarget(resolve(ctx.cwd, opts.out)) : undefined;
  if (target) {
    const protect: Record<string, string> = {};
    if (ctx.mockMode) protect[ctx.mockDataFile()] = "the embedded mock's data file";
    const settings = await ctx.settings();
    protect[settings.configPath] = 'the config file';
    const problem = await outputPathProblem(target, protect);
    if (problem) throw new UsageError(`Cannot write the export to ${opts.out}: ${problem}`);
  }
  const spinner = await ctx.io.spinner('Exporting contacts…');
  let count = 0;
  async function* contacts() {
    for await (const page of client.contacts.pages({ agentId, perPage: 1000 })) {
      count += page.data.length;
      spinner.update(`Exporting contacts… ${count} of ${page.total}`);
      yield* page.data;
    }
  }
  let file: AtomicFile | undefined;
  try {
    file = target ? await openAtomicFile(target) : undefined;
    const stream = file?.stream();
    // A failed write to the file ends the export at once, rather than leaving it waiting for a drain.
    const fileError = stream && new Promise<never>((_, reject) => stream.once('error', reject));
    const writing = writeContacts(stream ?? ctx.io.stdout, format, contacts(), {
      attributeNames,
      formulaGuard: !opts.raw,
    });
    const summary = await (fileError ? Promise.race([writing, fileError]) : writing);
    await file?.commit();
    spinner.stop();
    ctx.io.note(`Exported ${summary.count} contacts${target ? ` to ${opts.out}` : ''}.`);
  } catch (err) {
    spinner.fail();
    await file?.abort();
    throw err;
  }
}
