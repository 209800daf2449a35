// Teardown: the contacts a file names, deleted. The file is read with the importer's own readers
// (a CSV or JSON/NDJSON with external_id, such as an import file or its results file) or is plain
// text with one id a line; deletes run under the import's scheduler (src/bulk/scheduler.ts) and
// with the client's retries. A contact already gone counts as done, so a teardown can run twice.
import { NotSent, paced } from '../bulk/paced.js';
import { Scheduler } from '../bulk/scheduler.js';
import type { ContactsClient } from '../client/client.js';
import { AgentNotFoundError, NotFoundError } from '../client/errors.js';
import { headerWords, roleByWords } from '../importer/columns.js';
import { ImportError } from '../importer/errors.js';
import { formatFromName, isTabular, sniffDelimiter, sniffFormat } from '../importer/format.js';
import { resolveMapping } from '../importer/mapping.js';
import { openSource } from '../importer/sources/index.js';
import { type OpenedInput, openInput } from '../importer/sources/input.js';
import { decodeText } from '../importer/sources/text.js';

export interface TeardownId {
  /** Where the id stands in the file, for messages. */
  line: number;
  id: string;
}

/**
 * The external_ids `input` names, each once, in file order. A CSV needs an external_id column
 * (mapped as an import maps it); JSON and NDJSON records their `external_id`; anything else is
 * read as one id a line (blank lines and `#` comments skipped).
 */
export async function readTeardownIds(
  input: string,
  options: { stdin?: NodeJS.ReadableStream } = {},
): Promise<TeardownId[]> {
  const named = formatFromName(input);
  let structured = named !== undefined;
  if (!structured) {
    const peek = await openInput(input, options);
    const sample = peek.sampleText;
    const kind = sniffFormat(sample);
    structured = kind !== 'csv' || headerNamesAnId(sample);
    if (!structured) return plainIds(peek);
    // The peek consumed the start of stdin: only a file can be opened again.
    if (input === '-') return structuredFromOpened(peek);
    peek.destroy();
  }
  const source = await openSource(input, { stdin: options.stdin });
  return idsFromSource(source);
}

function headerNamesAnId(sample: string): boolean {
  const firstLine = sample.split(/\r?\n/, 1)[0] ?? '';
  const cells = firstLine.split(sniffDelimiter(firstLine));
  return cells.some((c) => roleByWords(headerWords(c.replace(/^"|"$/g, ''))) === 'id');
}

async function structuredFromOpened(opened: OpenedInput): Promise<TeardownId[]> {
  const { openCsv } = await import('../importer/sources/csv.js');
  const { openNdjson } = await import('../importer/sources/ndjson.js');
  const { openJson } = await import('../importer/sources/json.js');
  const kind = sniffFormat(opened.sampleText);
  let source: Awaited<ReturnType<typeof openSource>>;
  if (kind === 'xlsx') source = await (await import('../importer/sources/xlsx.js')).openXlsx(opened);
  else if (kind === 'vcard') source = await (await import('../importer/sources/vcard.js')).openVcard(opened);
  else
    source = kind === 'csv' ? await openCsv(opened) : kind === 'json' ? openJson(opened) : openNdjson(opened);
  return idsFromSource(source);
}

async function idsFromSource(source: Awaited<ReturnType<typeof openSource>>): Promise<TeardownId[]> {
  let column = -1;
  if (isTabular(source.format)) {
    const mapping = resolveMapping({ header: source.header ?? [], definitions: [] });
    column = mapping.columns.findIndex((targets) =>
      targets.some((t) => t.kind === 'field' && t.field === 'external_id'),
    );
  }
  const seen = new Set<string>();
  const ids: TeardownId[] = [];
  for await (const rec of source.records) {
    const raw = column >= 0 ? rec.raw?.[column] : rec.record.external_id;
    const id = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
    if (!id || seen.has(id)) continue;
    seen.add(id);
    ids.push({ line: rec.line, id });
  }
  return ids;
}

async function plainIds(opened: OpenedInput): Promise<TeardownId[]> {
  const seen = new Set<string>();
  const ids: TeardownId[] = [];
  let line = 0;
  let carry = '';
  const take = (text: string) => {
    line++;
    const id = text.trim();
    if (!id || id.startsWith('#') || seen.has(id)) return;
    seen.add(id);
    ids.push({ line, id });
  };
  for await (const text of decodeText(opened)) {
    const parts = (carry + text).split(/\r?\n/);
    carry = parts.pop() ?? '';
    for (const part of parts) take(part);
  }
  if (carry) take(carry);
  return ids;
}

export interface TeardownReport {
  /** Ids the file named (each once). */
  ids: number;
  deleted: number;
  /** Already gone: counted as done. */
  notFound: number;
  failed: number;
  failures: { line: number; id: string; reason: string }[];
  interrupted: boolean;
  durationMs: number;
}

export interface TeardownOptions {
  client: ContactsClient;
  agentId: string;
  ids: readonly TeardownId[];
  /** Requests in flight at most; default 8, as an import's. */
  concurrency?: number;
  maxRetries?: number;
  signal?: AbortSignal;
  onProgress?: (report: TeardownReport) => void;
}

/** Deletes every id under the scheduler; stops on a failure that is not about one contact. */
export async function runTeardown(options: TeardownOptions): Promise<TeardownReport> {
  const { client, agentId, ids } = options;
  const started = Date.now();
  const report: TeardownReport = {
    ids: ids.length,
    deleted: 0,
    notFound: 0,
    failed: 0,
    failures: [],
    interrupted: false,
    durationMs: 0,
  };
  const scheduler = new Scheduler({ max: options.concurrency ?? 8 });
  const active = new Set<Promise<void>>();
  let slotFreed: (() => void) | undefined;
  let fatal: { error: unknown } | undefined;
  const stopped = () => Boolean(options.signal?.aborted) || fatal !== undefined;
  for (const entry of ids) {
    while (!scheduler.canStart && !stopped()) await new Promise<void>((resolve) => (slotFreed = resolve));
    if (options.signal?.aborted) {
      report.interrupted = true;
      break;
    }
    if (fatal) break;
    scheduler.acquire();
    let ticket: number | undefined;
    const task = (async () => {
      try {
        await client.contacts.delete(entry.id, {
          agentId,
          maxRetries: options.maxRetries ?? 10,
          beforeAttempt: async (attempt) => {
            ticket = await paced(scheduler, () => attempt === 1 && stopped());
          },
          onAttempt: (event) => scheduler.answered(ticket ?? 0, event.status, event.headers, Date.now()),
        });
        report.deleted++;
      } catch (error) {
        if (error instanceof NotSent) return;
        if (error instanceof NotFoundError && !(error instanceof AgentNotFoundError)) report.notFound++;
        else if (isContactError(error)) {
          report.failed++;
          report.failures.push({ line: entry.line, id: entry.id, reason: (error as Error).message });
        } else fatal ??= { error };
      } finally {
        scheduler.release();
        slotFreed?.();
        options.onProgress?.({ ...report, durationMs: Date.now() - started });
      }
    })();
    active.add(task);
    void task.then(() => active.delete(task));
  }
  await Promise.all(active);
  // Ids whose first attempt was stopped before it left count as not done: the run was interrupted.
  if (options.signal?.aborted && report.deleted + report.notFound + report.failed < ids.length)
    report.interrupted = true;
  report.durationMs = Date.now() - started;
  if (fatal) throw new TeardownStoppedError(fatal.error, report);
  return report;
}

/** A 4xx about one contact (not the key, the agent or the service) fails that id alone. */
function isContactError(error: unknown): boolean {
  const status = (error as { status?: number }).status;
  return (
    !(error instanceof AgentNotFoundError) &&
    status !== undefined &&
    status >= 400 &&
    status < 500 &&
    status !== 401 &&
    status !== 403 &&
    status !== 429
  );
}

export class TeardownStoppedError extends ImportError {
  override name = 'TeardownStoppedError';
  readonly report: TeardownReport;
  constructor(cause: unknown, report: TeardownReport) {
    super(`Teardown stopped: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.report = report;
  }
}
