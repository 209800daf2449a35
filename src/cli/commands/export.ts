// `contacts export`: every contact of the agent, page by page, as CSV (importable again as is),
// JSON, NDJSON or an Excel workbook, to stdout or to a file written atomically. A file is
// written only from a walk of the pages that saw one list; stdout fails when the list changes.

import { extname, resolve } from 'node:path';
import { PER_PAGE_MAX } from '../../api/limits.js';
import { InconsistentListError } from '../../client/errors.js';
import { WALK_ATTEMPTS, walkUntilConsistent } from '../../client/walk.js';
import { fileType, type WrittenFormat } from '../../importer/format-names.js';
import { checkOutputPaths, OutputPathError, type ProtectedPath } from '../../util/output-path.js';
import { type AtomicFile, openAtomicFile } from '../../util/write-file-atomic.js';
import type { CommandContext } from '../context.js';
import { listChangedError, UsageError } from '../errors.js';
import { plural } from '../output/plural.js';
import { writeContacts } from '../output/render.js';
import { outputPathRefusal, protectedPaths } from '../output-paths.js';
import type { ExportCommandOptions } from './export-command.js';

/**
 * The format a file (or stdout) gets: `-o`, else the --out extension, else CSV. An extension
 * that names another format than the one written is refused, before anything is fetched: a
 * file named .xlsx holding CSV is one Excel refuses to open.
 */
export function exportFormat(
  command: string,
  asked: string | undefined,
  out: string | undefined,
): WrittenFormat {
  const writes = 'csv, json, ndjson or xlsx';
  if (asked !== undefined && asked !== 'csv' && asked !== 'json' && asked !== 'ndjson' && asked !== 'xlsx') {
    throw new UsageError(`${command} writes ${writes}, not ${asked}`, {
      hint: 'Pass -o csv, -o json, -o ndjson or -o xlsx.',
    });
  }
  if (out === undefined) return asked ?? 'csv';
  const ext = extname(out).toLowerCase();
  if (ext === '.tsv') {
    throw new UsageError(`${command} writes comma-separated CSV, not TSV`, {
      hint: 'Name the file .csv, or pass -o csv.',
    });
  }
  const type = fileType(ext);
  const byName = type?.written;
  if (!byName && type?.is) {
    throw new UsageError(`${command} cannot write ${type.is} (${out})`, {
      hint: 'Name the file .csv, .json, .ndjson or .xlsx.',
    });
  }
  if (asked && byName && byName !== asked) {
    throw new UsageError(`--out ${out} names ${byName} but -o asks for ${asked}`, {
      hint: `Name the file .${asked === 'ndjson' ? 'ndjson' : asked}, or drop -o.`,
    });
  }
  if (asked) return asked;
  if (byName) return byName;
  if (ext === '') return 'csv';
  throw new UsageError(`${command} cannot tell which format to write to ${out}`, {
    hint: 'Name the file .csv, .json, .ndjson or .xlsx, or pass -o with the format.',
  });
}

export async function exportContacts(ctx: CommandContext, opts: ExportCommandOptions) {
  const format = exportFormat('export', ctx.options.output, opts.out);
  // JSON keeps every value as it is already, and a workbook's cells are typed: only CSV guards.
  if (opts.raw && format !== 'csv') {
    throw new UsageError(`--raw is for CSV: ${format} never changes a value`, {
      hint: `Drop --raw, or export CSV (-o csv).`,
    });
  }
  if (format === 'xlsx' && !opts.out && ctx.io.isTTY.stdout) {
    throw new UsageError('A workbook is not text for a terminal', {
      hint: 'Pass --out contacts.xlsx, or redirect stdout to a file.',
    });
  }
  // Before the service (or the embedded mock, which opens its database) is started.
  const target = opts.out ? await checkedOut(ctx, opts.out, 'the export') : undefined;
  const [client, agentId] = await Promise.all([ctx.client(), ctx.agent()]);
  // Every attribute (archived too) gets a CSV column up front, so rows stream.
  const definitions = await client.attributes.list({ agentId });
  const attributeNames = definitions.map((d) => d.name);

  const spinner = await ctx.io.spinner('Exporting contacts…');
  let count = 0;
  async function* contacts() {
    for await (const page of client.contacts.pages({ agentId, perPage: PER_PAGE_MAX })) {
      count += page.data.length;
      spinner.update(`Exporting contacts… ${count} of ${page.total}`);
      yield* page.data;
    }
  }
  /** One walk of every page into `file` (or stdout), the file committed when the walk was whole. */
  async function write(file: AtomicFile | undefined): Promise<{ count: number }> {
    count = 0;
    let summary: { count: number };
    if (format === 'xlsx') {
      const { outStreamSink, writeContactsWorkbook } = await import('../output/workbook.js');
      const sink = file ? { write: (chunk: Uint8Array) => file.write(chunk) } : outStreamSink(ctx.io.stdout);
      summary = await writeContactsWorkbook(sink, contacts(), definitions);
    } else {
      const stream = file?.stream();
      // A failed write to the file ends the export at once, rather than leaving it waiting for a drain.
      const fileError = stream && new Promise<never>((_, reject) => stream.once('error', reject));
      const writing = writeContacts(stream ?? ctx.io.stdout, format, contacts(), {
        attributeNames,
        formulaGuard: !opts.raw,
      });
      summary = await (fileError ? Promise.race([writing, fileError]) : writing);
    }
    await file?.commit();
    return summary;
  }
  try {
    let summary: { count: number };
    if (target) {
      // A file can start over: contacts added or deleted under the walk shift the pages, so the
      // walk is made again from the first page into a fresh temporary file until it holds still.
      summary = await walkUntilConsistent(
        async () => {
          const file = await openAtomicFile(target);
          try {
            return await write(file);
          } catch (err) {
            await file.abort();
            throw err;
          }
        },
        {
          onRetry: (error, attempt) =>
            ctx.io.warn(
              `${error.message}; reading them again from the first page (${attempt} of ${WALK_ATTEMPTS})`,
            ),
        },
      );
    } else {
      summary = await write(undefined);
    }
    spinner.stop();
    ctx.io.note(`Exported ${plural(summary.count, 'contact')}${target ? ` to ${opts.out}` : ''}.`);
  } catch (err) {
    spinner.fail();
    if (err instanceof InconsistentListError) throw listChangedError(err, opts.out);
    throw err;
  }
}

/**
 * `--out`, made absolute and checked by the output-path rule (not the config file, the mock's
 * database, the undo records; no link another user planted), worded with the option.
 */
export async function checkedOut(
  ctx: CommandContext,
  out: string,
  what: string,
  inputs: readonly ProtectedPath[] = [],
): Promise<string> {
  const path = resolve(ctx.cwd, out);
  try {
    await checkOutputPaths([{ path, what, output: 'out' }], [...inputs, ...(await protectedPaths(ctx))]);
  } catch (error) {
    if (error instanceof OutputPathError)
      throw outputPathRefusal(ctx, error, { out: { flag: '--out', value: out } });
    throw error;
  }
  return path;
}
