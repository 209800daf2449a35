// What `contacts import` shows a person and a script: the progress line, the closing summary, the
// summary record and `--diff`'s per-row changes. The command decides; this module renders.
import { relative } from 'node:path';
import type { AttributeType } from '../../api/attribute.js';
import { ATTRIBUTE_TYPES } from '../../api/limits.js';
import { normalizeHeader, withoutAccents } from '../../importer/mapping.js';
import type { ImportNote } from '../../importer/notes.js';
import type { ImportEvent, ImportReport } from '../../importer/pipeline.js';
import type { ProblemCode } from '../../importer/row-validator.js';
import { VCARD_ATTRIBUTES } from '../../importer/sources/vcard.js';
import type { CommandContext } from '../context.js';
import { noteText, problemHint, problemHints } from './import-words.js';
import { planSummary } from './mapping-summary.js';
import { plural } from './plural.js';
import { visible } from './visible.js';

export function summaryRecord(r: ImportReport) {
  // A dry run wrote nothing: it says what would happen, never what did.
  const counts = r.dryRun
    ? {
        would_create: r.created,
        would_update: r.updated,
        unchanged: r.unchanged,
        would_reject: r.rejected,
        would_fix: r.fixed,
      }
    : { created: r.created, updated: r.updated, rejected: r.rejected, fixed: r.fixed };
  return {
    rows: r.rows,
    ...counts,
    skipped: r.skipped,
    empty_rows: r.empty.count,
    dry_run: r.dryRun,
    interrupted: r.interrupted,
    duration_ms: r.durationMs,
    // A dry run sends nothing: no rate to give.
    ...(r.dryRun ? {} : { rows_per_second: r.rowsPerSecond }),
    requests: r.requests,
    rate_limited: r.throttled,
    multi_value_cells: r.multiValue.reduce((n, m) => n + m.cells, 0),
    // A report's other sections, not read: what a script must know was left in the file.
    sections_not_read: r.sectionsNotRead,
    sheets_not_read: r.sheetsNotRead,
    rejects_file: r.rejectsFile,
    fixes_file: r.fixesFile,
    results_file: r.resultsFile,
    // What `contacts undo ID` takes back (null: nothing recorded).
    undo: r.undo && { id: r.undo.id, full: r.undo.full },
  };
}

/** Problems shown in full as they happen; past these, only the closing summary by reason. */
const PROBLEMS_SHOWN = 5;

/**
 * After the summary line: the rejects and the fields left out, counted by reason with the first
 * lines of each; cells that held several values; names that lost characters before the import.
 */
export function closingLines(r: ImportReport, hinted: ReadonlySet<string> = new Set()): string[] {
  const lines: string[] = [];
  const where = (l: number[], count: number) =>
    `line${l.length > 1 ? 's' : ''} ${l.join(', ')}${count > l.length ? ', …' : ''}`;
  const reasons = (title: string, groups: ImportReport['rejectReasons']) => {
    if (groups.length === 0) return;
    lines.push(title);
    for (const g of groups.slice(0, 10)) {
      lines.push(
        `  ${String(g.count).padStart(6)}  ${g.count === 1 ? g.example : g.reason} (${where(g.lines, g.count)})`,
      );
    }
    if (groups.length > 10) {
      const rest = groups.slice(10).reduce((n, g) => n + g.count, 0);
      lines.push(`  ${String(rest).padStart(6)}  for ${groups.length - 10} other reasons (see the file)`);
    }
  };
  reasons(`${r.dryRun ? 'Would reject' : 'Rejected'}, by reason:`, r.rejectReasons);
  reasons(
    `${r.dryRun ? 'Would leave out' : 'Left out'} (the contact lands without the field), by reason:`,
    r.fixReasons,
  );
  // A hint given with the problems as they were shown is not said again.
  lines.push(...problemHints(r.problemCodes).filter((h) => !hinted.has(h)));
  if (r.multiValue.length > 0) {
    lines.push(
      `Cells with several values: ${r.multiValue.map((m) => `${m.column}: ${plural(m.cells, 'cell')}`).join(', ')}.`,
    );
  }
  if (r.repeatedKeys > 0) {
    lines.push(
      `${plural(r.repeatedKeys, 'row')} had the key of an earlier row of the file: each ${r.dryRun ? 'would update' : 'updated'} that contact.`,
    );
  }
  if (r.placedByFile.length > 0) {
    const n = r.placedByFile.reduce((sum, p) => sum + p.count, 0);
    const where = r.placedByFile.map((p) => `${p.country} ${p.count}`).join(', ');
    lines.push(
      `${plural(n, 'national phone number')} placed by the file's own evidence, its international numbers and country columns (${where}); ` +
        'to choose otherwise, pass --default-country (or give the rows a country column).',
    );
  }
  if (r.empty.count > 0) {
    lines.push(
      `${plural(r.empty.count, 'row')} had no value to import but a key, or none at all ` +
        `(${where(r.empty.lines, r.empty.count)}): ${r.dryRun ? 'not to send' : 'not sent'}, so no empty contact is made.`,
    );
  }
  if (r.lostCharacters.count > 0) {
    lines.push(
      `${r.lostCharacters.count} name${r.lostCharacters.count === 1 ? '' : 's'} hold "??" where the exporting system lost characters ` +
        `(${where(r.lostCharacters.lines, r.lostCharacters.count)}): export again as UTF-8 to keep them.`,
    );
  }
  return lines;
}

/** A path as a message shows it: relative to the working directory when under it, else as it is. */
export function pathFromCwd(ctx: CommandContext, file: string): string {
  const rel = relative(ctx.cwd, file);
  return rel.startsWith('..') ? file : rel;
}

/** The closing sentence: what happened to the rows, how long it took, at what rate. */
export function summaryLine(r: ImportReport): string {
  const seconds = `${(r.durationMs / 1000).toFixed(1)}s`;
  const earlier =
    (r.skipped ? `, ${r.skipped} landed in an earlier run` : '') +
    (r.empty.count
      ? `, ${r.empty.count} with nothing to import ${r.dryRun ? 'not to send' : 'not sent'}`
      : '');
  const fixed = r.fixed ? `, ${r.fixed} ${r.dryRun ? 'would land' : 'landed'} without a field` : '';
  if (r.dryRun) {
    return `Checked ${plural(r.rows, 'row')} in ${seconds}: ${r.created} to create, ${r.updated} to update, ${r.unchanged} unchanged, ${r.rejected} rejected${fixed}${earlier}.`;
  }
  const landed = r.created + r.updated;
  const detail = `${r.created} created, ${r.updated} updated, ${r.rejected} rejected${fixed}${earlier}`;
  if (r.interrupted) {
    return `Interrupted after ${seconds}: ${landed} of the ${plural(r.rows, 'row')} read had landed (${detail}).`;
  }
  // "Imported 6 rows" would claim the rejected ones landed too.
  const verb = r.rejected > 0 ? 'Read' : 'Imported';
  return `${verb} ${plural(r.rows, 'row')} in ${seconds} (${r.rowsPerSecond} rows/s): ${detail}.`;
}

/**
 * Rows per second over the last few seconds, not since the start: after an outage the figure
 * says how fast rows land now.
 */
export class RateMeter {
  readonly #windowMs: number;
  #samples: { at: number; done: number }[] = [];
  constructor(windowMs = 5_000) {
    this.#windowMs = windowMs;
  }
  rate(done: number, now = Date.now()): number {
    this.#samples.push({ at: now, done });
    while (this.#samples.length > 1 && now - this.#samples[0]!.at > this.#windowMs) this.#samples.shift();
    const first = this.#samples[0]!;
    const seconds = (now - first.at) / 1000;
    return seconds <= 0 ? 0 : Math.round((done - first.done) / seconds);
  }
}

/**
 * One progress line: rows done (of the total, for a file), the current rate, the requests in
 * flight (what the link was found to take), rejects so far.
 */
export function progressLine(
  e: Extract<ImportEvent, { type: 'progress' }>,
  dryRun: boolean,
  rate: number,
): string {
  const { stats, total } = e;
  const done = stats.created + stats.updated + stats.rejected + stats.skipped + stats.empty + stats.unchanged;
  const of = total ? ` of ${total} (${Math.floor((done * 100) / Math.max(1, total))}%)` : '';
  const link = dryRun ? '' : `, ${e.inFlight} in flight`;
  return `${done}${of} rows ${dryRun ? 'checked' : 'done'}, ${rate} rows/s${link}, ${stats.rejected} rejected`;
}

/**
 * `--diff`: each row that would change, as it is planned: one JSON object a line with `-o ndjson`
 * or `-o json` (whose summary is then the last line, one object too), otherwise a readable diff,
 * `field: old -> new`.
 */
export function diffWriter(ctx: CommandContext, format: string) {
  const show = (v: unknown) => (v === null || v === undefined ? '(none)' : JSON.stringify(v));
  return (plan: Extract<ImportEvent, { type: 'plan' }>) => {
    const { line, external_id, action, changes } = plan;
    if (format === 'ndjson' || format === 'json') {
      ctx.io.stdout.write(`${JSON.stringify({ line, external_id, action, changes })}\n`);
      return;
    }
    const fields = Object.entries(changes).map(
      ([field, [old, next]]) => `  ${field}: ${show(old)} -> ${show(next)}`,
    );
    ctx.io.stdout.write(
      `${visible(`line ${line}  ${external_id}  ${action}`)}\n${fields.map((f) => visible(f)).join('\n')}\n`,
    );
  };
}

/** Columns named in the warning about unmapped ones; the rest are counted. */
const MAX_NAMED_COLUMNS = 10;

/** Which columns are ignored: the first few by name (each cut to a readable length) and a count. */
export function unmappedWarning(unmapped: readonly string[]): string {
  const named = unmapped
    .slice(0, MAX_NAMED_COLUMNS)
    .map((name) => (name.length > 40 ? `${name.slice(0, 39)}…` : name))
    .join(', ');
  const more = unmapped.length - MAX_NAMED_COLUMNS;
  return more > 0
    ? `Ignoring ${unmapped.length} columns that map to no field: ${named} and ${more} more`
    : `Ignoring columns that map to no field: ${named}`;
}

/**
 * How to keep an ignored column: a column fills the attribute of its name (`Create Date` fills
 * `create_date`), once the agent defines one, of the type its values ask for (`types`, by column:
 * a column without one is passed over; without `types`, text). Undefined when no name makes an
 * attribute.
 */
export function keepColumnHint(
  unmapped: readonly string[],
  types?: Readonly<Record<string, AttributeType>>,
): string | undefined {
  for (const column of unmapped.slice(0, MAX_NAMED_COLUMNS)) {
    if (types && !Object.hasOwn(types, column)) continue;
    const name = withoutAccents(column)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '');
    // Only a name the column is matched to (`Société` fills `societe`; `顧客名` none).
    if (!/^[a-z]/.test(name) || normalizeHeader(name) !== normalizeHeader(withoutAccents(column))) continue;
    const type = types?.[column] ?? 'text';
    const others = ATTRIBUTE_TYPES.filter((t) => t !== type).join(', ');
    return `To import a column, define the attribute it fills first, e.g. contacts attrs define ${name} --type ${type} (or ${others})`;
  }
  return undefined;
}

/**
 * An ignored column whose values are phones, emails or countries: the fix is a --map to that
 * field, not an attribute (`Fax` holds numbers this tool does not take as the contact's phone).
 */
export function lookAlikeHint(
  lookAlikes: readonly { header: string; field: string; with: readonly string[] }[],
): string | undefined {
  const first = lookAlikes[0];
  if (!first) return undefined;
  const what =
    first.field === 'phonenumber'
      ? 'phone numbers'
      : first.field === 'email'
        ? 'email addresses'
        : 'countries';
  // A --map for the field replaces the columns found for it: they are named too, in their order.
  const maps = [...first.with, first.header].map((h) => `--map ${JSON.stringify(`${h}=${first.field}`)}`);
  return `Column "${first.header}" holds ${what} but is not read as the contact's: to use it, ${maps.join(' ')}`;
}

/** Notices said one by one; past these, only that there are more. */
const MAX_NOTICES = 10;

/** Progress on stderr: a spinner line on a terminal, plain lines every few seconds otherwise. */
export async function createProgress(
  ctx: CommandContext,
  dryRun: boolean,
  diff?: (plan: Extract<ImportEvent, { type: 'plan' }>) => void,
) {
  const spinner = ctx.io.isTTY.stderr ? await ctx.io.spinner('Reading…') : undefined;
  let lastLine = Date.now();
  let lastRetryLine = 0;
  let notices = 0;
  let current = '';
  let retry = '';
  const meter = new RateMeter();
  let rejectsShown = 0;
  let fixesShown = 0;
  /** Hints given with the problems shown: each once. */
  const hinted = new Set<string>();
  const hint = (codes: readonly ProblemCode[] | undefined) => {
    for (const code of codes ?? []) {
      const text = problemHint(code);
      if (hinted.has(text)) continue;
      hinted.add(text);
      ctx.io.note(text);
    }
  };
  /** The attributes a vCard's ORG, BDAY, NOTE or TITLE would fill that the agent lacks (said when a card has one). */
  let unmappedAttributes: readonly string[] = [];
  /** The workbook's other sheets with values, as said: under --quiet, said with an error that stops the import. */
  let sheetsNote: string | undefined;
  const say = (note: ImportNote) => {
    if (note.code === 'sheets_not_read') sheetsNote = noteText(note);
    if (note.code !== 'vcard_attribute') ctx.io.note(noteText(note));
    else if (unmappedAttributes.includes(note.attribute)) {
      const { what, type } = VCARD_ATTRIBUTES.find((a) => a.attribute === note.attribute)!;
      ctx.io.note(
        `Cards' ${note.property} (${what}) is not imported: the agent has no custom attribute ${note.attribute} to keep it in ` +
          `(contacts attrs define ${note.attribute} --type ${type}).`,
      );
    }
  };
  const line = (e: Extract<ImportEvent, { type: 'progress' }>) => {
    const s = e.stats;
    return progressLine(e, dryRun, meter.rate(s.created + s.updated + s.rejected));
  };
  return {
    /** The hints said with the problems shown. */
    hinted: hinted as ReadonlySet<string>,
    /**
     * Before an error that stops the import: what was said of the input that may be why (the
     * workbook's other sheets), if --quiet kept it unsaid.
     */
    sayContextOfError() {
      if (ctx.io.quiet && sheetsNote) ctx.io.failure(sheetsNote);
    },
    event(e: ImportEvent) {
      switch (e.type) {
        case 'start': {
          // What the import made of the file, before the first row: the export and its mapping.
          const summary = planSummary(e.plan);
          if (summary) ctx.io.note(summary);
          // The summary names the key itself when it has one line for the mapping.
          if (e.keyFromEmail && !summary?.includes('no id column:'))
            ctx.io.note(`no id column: external_id = ${e.keyFromEmail}, in lower case`);
          // A vCard's columns that may map to nothing: ORG, BDAY, NOTE, TITLE, kept only in attributes.
          unmappedAttributes = e.plan.reading === 'vcard' ? e.unmapped : [];
          for (const note of e.notes) say(note);
          if (e.format === 'csv') {
            ctx.io.note(
              e.emptyStrings
                ? 'A quoted empty cell ("") clears a name or text attribute; an unquoted one leaves the field as it is.'
                : 'Empty cells, quoted or not, leave the field as it is (--empty-strings makes "" clear it).',
            );
          }
          if (e.timeZone)
            ctx.io.note(`Date-times without a zone are read as ${e.timeZone} time and stored in UTC.`);
          if (e.plan.reading === 'vcard') {
            const mapped = VCARD_ATTRIBUTES.filter((a) => !e.unmapped.includes(a.attribute));
            if (mapped.length > 0)
              ctx.io.note(mapped.map((a) => `${a.property} (${a.what}) -> attr.${a.attribute}`).join('; '));
          } else if (e.unmapped.length > 0) {
            ctx.io.warn(unmappedWarning(e.unmapped));
            const hint = lookAlikeHint(e.lookAlikes) ?? keepColumnHint(e.unmapped, e.unmappedTypes);
            if (hint) ctx.io.note(hint);
          }
          if (e.resumed) ctx.io.note('Resuming: rows that landed in the earlier run are skipped.');
          if (e.checkpointDiscarded) {
            ctx.io.note(
              '--restart: the checkpoint of the unfinished import of this file is discarded and the import starts ' +
                'over from the first row (rows it landed are updated to the same values).',
            );
          }
          break;
        }
        case 'note':
          say(e);
          break;
        case 'progress':
          current = line(e);
          // A progress event means rows land again: a retry notice has had its day.
          retry = '';
          if (spinner) spinner.update(current);
          else if (Date.now() - lastLine >= 2000 && !ctx.io.quiet) {
            lastLine = Date.now();
            ctx.io.note(current);
          }
          break;
        case 'plan':
          diff?.(e);
          break;
        case 'notice':
          notices++;
          if (notices <= MAX_NOTICES) ctx.io.warn(`line ${e.line}: ${e.message}`);
          else if (notices === MAX_NOTICES + 1) ctx.io.warn('More notices like these are not shown.');
          break;
        case 'reject':
          // The first few in full as they come; the rest in the closing summary by reason (and
          // the rejects file).
          if (++rejectsShown <= PROBLEMS_SHOWN) {
            ctx.io.note(`line ${e.line}: rejected: ${e.reason}`);
            hint(e.codes);
          }
          break;
        case 'fix':
          if (++fixesShown <= PROBLEMS_SHOWN) {
            ctx.io.note(`line ${e.line}: lands without ${e.reason}`);
            hint(e.codes);
          }
          break;
        case 'throttled':
          if (ctx.options.debug)
            ctx.io.note(`rate limited (429): now at most ${e.concurrency} requests in flight`);
          break;
        case 'batch-unsupported':
          ctx.io.warn(`The service does not accept the batch form (${e.reason}); sending single rows.`);
          break;
      }
    },
    /** A retry notice: on the one progress line on a terminal; at most a line every 5 s otherwise. */
    retrying(notice: string) {
      retry = notice;
      if (spinner) spinner.update(`${current || 'Sending…'} (${retry})`);
      else if (Date.now() - lastRetryLine >= 5000) {
        lastRetryLine = Date.now();
        ctx.io.note(notice);
      }
    },
    /** Ctrl-C: the spinner stops first, so the notice is a whole line of its own. */
    interrupted() {
      spinner?.stop();
      ctx.io.warn('Interrupted: letting the requests in flight finish (Ctrl-C again to quit at once)…');
    },
    stop() {
      spinner?.stop();
    },
  };
}
