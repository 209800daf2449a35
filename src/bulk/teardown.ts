// Teardown: the contacts `delete --from` names (src/importer/teardown-ids.ts reads them from the
// file), deleted under the bulk commands' scheduler (./scheduler.ts) and with the client's
// retries. A contact already gone counts as done, so a teardown can run twice.
import type { ContactsClient } from '../client/client.js';
import { AgentNotFoundError, NotFoundError } from '../client/errors.js';
import { ContactsError } from '../core/error.js';
import { checkOptions } from '../core/options.js';
import { MAX_CONCURRENCY } from './defaults.js';
import { isAboutOneContact, runPaced } from './paced-run.js';

export interface TeardownId {
  /** Where the id stands in the file, for messages. */
  line: number;
  id: string;
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
  /** Requests in flight at most (1 to MAX_CONCURRENCY); default DEFAULT_CONCURRENCY, as an import's. */
  concurrency?: number;
  maxRetries?: number;
  signal?: AbortSignal;
  onProgress?: (report: TeardownReport) => void;
}

/** Deletes every id under the scheduler; stops on a failure that is not about one contact. */
export async function runTeardown(options: TeardownOptions): Promise<TeardownReport> {
  checkOptions('runTeardown()', options)
    .object('client', 'a ContactsClient', true)
    .string('agentId', { required: true })
    .array('ids', true)
    .integer('concurrency', 1, MAX_CONCURRENCY)
    .integer('maxRetries', 0)
    .signal()
    .function('onProgress');
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
  try {
    const run = await runPaced(
      ids,
      async (entry, request) => {
        try {
          await client.contacts.delete(entry.id, { ...request, agentId });
          report.deleted++;
        } catch (error) {
          if (error instanceof NotFoundError && !(error instanceof AgentNotFoundError)) report.notFound++;
          else if (isAboutOneContact(error)) {
            report.failed++;
            report.failures.push({ line: entry.line, id: entry.id, reason: (error as Error).message });
          } else throw error;
        } finally {
          options.onProgress?.({ ...report, durationMs: Date.now() - started });
        }
      },
      { concurrency: options.concurrency, maxRetries: options.maxRetries, signal: options.signal },
    );
    report.interrupted = run.interrupted;
  } catch (error) {
    report.durationMs = Date.now() - started;
    throw new TeardownStoppedError(error, report);
  }
  report.durationMs = Date.now() - started;
  return report;
}

/** The teardown stopped on a failure not about one contact (`cause`); `report` says how far it got. */
export class TeardownStoppedError extends ContactsError {
  readonly report: TeardownReport;
  constructor(cause: unknown, report: TeardownReport) {
    super(`Teardown stopped: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.report = report;
  }
}
