// Taking an import back from its undo record (./record.ts): contacts it created are deleted; in
// contacts it updated, the fields it sent are put back as they were (empty ones emptied again); a
// contact changed since the import (its state is not the one the import left), or whose state
// before is not known for sure, is kept as it is and listed with the fields that differ. The plan
// is made from the contacts as they are now and each chunk is read again just before it is
// written, so an undo run twice, or after an interruption, finds done what is done.
import type { Contact, ContactInput, ContactInputParsed } from '../api/contact.js';
import { MAX_BATCH_SIZE } from '../api/limits.js';
import { MAX_CONCURRENCY } from '../bulk/defaults.js';
import { DirectoryReader } from '../bulk/directory.js';
import {
  DEFAULT_CONCURRENCY,
  DEFAULT_RETRIES,
  isAboutOneContact,
  type PacedRunOptions,
  runPaced,
} from '../bulk/paced-run.js';
import type { ContactsClient } from '../client/client.js';
import { AgentNotFoundError, APIError, ConflictError, NotFoundError } from '../client/errors.js';
import { walkUntilConsistent } from '../client/walk.js';
import { ContactsError } from '../core/error.js';
import { checkOptions, InvalidOptionError } from '../core/options.js';
import { ImportError } from '../importer/errors.js';
import { MAX_BATCH_BYTES } from '../importer/stages/send-sink.js';
import {
  isWriting,
  listUndoRecords,
  type RecordedContact,
  serviceName,
  UndoRecord,
  type UndoRecordSummary,
} from './record.js';
import type { UndoRef } from './recorder.js';
import { applyInput, type ContactState, type FieldChanges, fieldChanges, patchOf, stateOf } from './state.js';

/** Why a contact is kept as it is. */
export type KeptReason =
  /** Its fields are not those the import left. */
  | 'changed'
  /** Deleted since the import (it existed before it). */
  | 'deleted'
  /** Deleted and made again since: another contact under the same external_id. */
  | 'remade'
  /** Updated by an import that did not read the states before (created contacts only were recorded). */
  | 'not-recorded'
  /** Its write was never answered and what the service holds is not what it would have made. */
  | 'unanswered'
  /** Not there when the import read the directory, there when it wrote: made by someone else. */
  | 'existed'
  /** A field the import did not send changed while it ran: its state before is not known. */
  | 'changed-during';

export type UndoStep =
  | { action: 'delete'; external_id: string; id: string }
  /** `changes`: each field as it is now, and as it is restored. */
  | { action: 'restore'; external_id: string; id: string; changes: FieldChanges }
  /** `changes`: each field as the import left it, and as it is now. */
  | { action: 'kept'; external_id: string; id: string | null; reason: KeptReason; changes: FieldChanges };

export type UndoEvent =
  | { type: 'start'; record: UndoRecordSummary; contacts: number }
  /** What is to be done (or kept) for one contact; nothing to do is not told. */
  | { type: 'step'; step: UndoStep }
  | { type: 'progress'; done: number; total: number }
  | { type: 'failed'; external_id: string; reason: string };

export interface UndoReport {
  record: UndoRecordSummary;
  dryRun: boolean;
  /** Contacts the import wrote. */
  contacts: number;
  /** Planned: contacts to delete and to restore. */
  toDelete: number;
  toRestore: number;
  deleted: number;
  restored: number;
  /** Gone, or back as they were, already: nothing to do. */
  alreadyDone: number;
  kept: number;
  failed: number;
  failures: { external_id: string; reason: string }[];
  interrupted: boolean;
  durationMs: number;
}

export interface UndoOptions {
  client: ContactsClient;
  agentId: string;
  /** The import's `report.undo`, or the path of its record. */
  record: UndoRef | string;
  /** The service this run writes to; the record's must be the same. Default: the client's base URL. */
  service?: string;
  /** Plan only: read, tell every step, write nothing. */
  dryRun?: boolean;
  /** Called once the plan is made, before anything is written: false writes nothing. */
  confirm?: (plan: {
    toDelete: number;
    toRestore: number;
    kept: number;
    record: UndoRecordSummary;
  }) => Promise<boolean> | boolean;
  concurrency?: number;
  maxRetries?: number;
  signal?: AbortSignal;
  onEvent?: (event: UndoEvent) => void;
}

/** The record cannot be used here: another agent, another service, an import still running. */
export class UndoRefusedError extends ImportError {}

/** Throws an InvalidOptionError for the first option of `options` that undoImport() cannot take. */
function checkUndoOptions(options: UndoOptions): void {
  const checks = checkOptions('undoImport()', options)
    .object('client', 'a ContactsClient', true)
    .string('agentId', { required: true })
    .string('service')
    .boolean('dryRun')
    .function('confirm', 'onEvent')
    .integer('concurrency', 1, MAX_CONCURRENCY)
    .integer('maxRetries', 0)
    .signal();
  const { record } = options;
  if (record === undefined || typeof record === 'string') checks.string('record', { required: true });
  else if (typeof record !== 'object' || record === null || typeof record.path !== 'string') {
    throw new InvalidOptionError(
      "undoImport(): record must be an undo record's path, or the UndoRef an import's report gives",
      { code: 'invalid_type', param: 'record' },
    );
  }
}

/** An undo that stopped on an error not about one contact (the key, the service, the network). */
export class UndoStoppedError extends ContactsError {
  readonly report: UndoReport;
  constructor(cause: unknown, report: UndoReport) {
    super(`Undo stopped: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.report = report;
  }
}

/** Contacts planned, then read again and written, at a time. */
const CHUNK = 1000;
/** Writes, per page of the directory, after which it is listed again before the next chunk. */
const RELIST_AFTER = 10;

type DeleteStep = Extract<UndoStep, { action: 'delete' }>;
type RestoreStep = Extract<UndoStep, { action: 'restore' }>;

/** The record `contacts undo` takes: the import whose results file is `results`, or the newest. */
export async function findUndoRecord(
  dir: string,
  of: { agentId: string; service: string; results?: string; id?: string },
): Promise<UndoRecordSummary | undefined> {
  const matches = (r: UndoRecordSummary) =>
    of.id !== undefined ? r.id === of.id : of.results !== undefined ? r.results === of.results : true;
  const service = serviceName(of.service);
  // This agent's and service's first; another's only to be refused with what it was made for.
  const own = (await listUndoRecords(dir, of.agentId)).filter((r) => r.service === service && matches(r));
  if (own.length > 0 || (of.id === undefined && of.results === undefined)) return own[0];
  return (await listUndoRecords(dir)).find(matches);
}

export async function undoImport(options: UndoOptions): Promise<UndoReport> {
  checkUndoOptions(options);
  const { client, agentId } = options;
  const emit = options.onEvent ?? (() => {});
  const maxRetries = options.maxRetries ?? DEFAULT_RETRIES;
  const path = typeof options.record === 'string' ? options.record : options.record.path;
  const record = await UndoRecord.open(path);
  try {
    const meta = { ...record.meta(), path };
    const service = serviceName(options.service ?? client.baseUrl);
    if (meta.agentId !== agentId) {
      throw new UndoRefusedError(
        `The import ${meta.id} was made for agent ${meta.agentId}, not ${agentId}: undo it with that agent`,
      );
    }
    if (meta.service !== service) {
      throw new UndoRefusedError(
        `The import ${meta.id} was made against ${meta.service}, not ${service}: undo it against that service`,
      );
    }
    if (isWriting(meta)) {
      throw new UndoRefusedError(
        `The import ${meta.id} is still running (process ${meta.pid}): let it finish or stop it (Ctrl-C), then undo it`,
      );
    }
    let started = Date.now();
    const { written } = record.counts();
    const report: UndoReport = {
      record: meta,
      dryRun: options.dryRun ?? false,
      contacts: written,
      toDelete: 0,
      toRestore: 0,
      deleted: 0,
      restored: 0,
      alreadyDone: 0,
      kept: 0,
      failed: 0,
      failures: [],
      interrupted: false,
      durationMs: 0,
    };
    emit({ type: 'start', record: meta, contacts: written });

    const fail = (step: UndoStep, error: unknown) => {
      const issues = error instanceof APIError ? error.issues : [];
      const reason =
        (error as Error).message +
        (issues.length > 0 ? `: ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}` : '');
      report.failed++;
      report.failures.push({ external_id: step.external_id, reason });
      emit({ type: 'failed', external_id: step.external_id, reason });
    };
    // An attribute archived since the import takes no value back (only null): a restore leaves
    // it out, and says so once.
    const archived = new Set(
      (await client.attributes.list({ agentId, maxRetries }))
        .filter((d) => d.archived)
        .map((d) => `custom_attributes.${d.name}`),
    );
    const toldArchived = new Set<string>();
    const leaveArchivedOut = (step: RestoreStep) => {
      const lost = Object.keys(step.changes).filter(
        (field) => archived.has(field) && step.changes[field]![1] !== null,
      );
      for (const field of lost) delete step.changes[field];
      if (lost.length > 0 && !toldArchived.has(step.external_id)) {
        toldArchived.add(step.external_id);
        fail(step, new Error(`${lost.join(', ')}: archived since the import, not restored`));
      }
      return Object.keys(step.changes).length > 0;
    };
    // The plan, from the contacts as they are now: the directory listed when that takes fewer
    // requests than asking for each, else asked in chunks.
    const reader = await DirectoryReader.open({ client, agentId, maxRetries });
    const listed = reader.listingIsCheaper(written);
    if (listed) {
      await holdListing(reader, record);
    }
    for (let after = 0; ; ) {
      const chunk = record.contacts(after, CHUNK);
      if (chunk.length === 0) break;
      after = chunk.at(-1)!.seq;
      if (options.signal?.aborted) {
        report.interrupted = true;
        return finish(report, started);
      }
      const ids = chunk.map((c) => c.external_id);
      const now = listed ? record.heldNow(ids) : fetched(await reader.fetch(ids));
      const steps: UndoStep[] = [];
      for (const c of chunk) {
        const step = stepFor(c, now.get(c.external_id));
        if (!step) {
          report.alreadyDone++;
          continue;
        }
        if (step.action === 'restore' && !leaveArchivedOut(step)) continue;
        if (step.action === 'delete') report.toDelete++;
        else if (step.action === 'restore') report.toRestore++;
        else report.kept++;
        emit({ type: 'step', step });
        if (step.action !== 'kept') steps.push(step);
      }
      if (!report.dryRun) record.plan(steps.map((step) => step.external_id));
    }
    if (report.dryRun || report.toDelete + report.toRestore === 0) {
      if (!report.dryRun && report.interrupted === false) markUndone(record);
      return finish(report, started);
    }
    const go = options.confirm
      ? await options.confirm({
          toDelete: report.toDelete,
          toRestore: report.toRestore,
          kept: report.kept,
          record: meta,
        })
      : true;
    if (!go) return finish({ ...report, dryRun: true }, started);
    if (record.meta().undoStartedAt === null) record.setMeta({ undoStartedAt: new Date().toISOString() });
    // The time the writes take, not the time the question waited.
    started = Date.now();

    // Each chunk is read again just before it is written: a contact changed since the plan (the
    // question may have waited for minutes) is kept, not overwritten. Within a chunk deletes go
    // first, freeing emails restored contacts take back; a restore refused because another
    // contact holds its email is tried once more at the end, when every delete is done.
    const total = report.toDelete + report.toRestore;
    const progress = () =>
      emit({ type: 'progress', done: report.deleted + report.restored + report.failed, total });
    const paced = {
      concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
      maxRetries,
      signal: options.signal,
    };
    const conflicts: RestoreStep[] = [];
    const writer = new Writer(client, agentId, paced, {
      deleted: () => {
        report.deleted++;
        progress();
      },
      gone: () => report.alreadyDone++,
      restored: () => {
        report.restored++;
        progress();
      },
      conflict: (step) => conflicts.push(step),
      failed: (step, error) => {
        fail(step, error);
        progress();
      },
    });
    let listedAt: number | undefined;
    try {
      for (const ids of record.planned(CHUNK)) {
        if (options.signal?.aborted) {
          report.interrupted = true;
          break;
        }
        let again: Map<string, { id: string; state: ContactState }>;
        if (!reader.listingIsCheaper(ids.length)) again = fetched(await reader.fetch(ids));
        else {
          // Listed again after the question, then whenever the writes since outnumber the
          // directory's pages tenfold: reading stays a tenth of the writing at most.
          if (listedAt === undefined || writer.requests - listedAt >= RELIST_AFTER * reader.pages) {
            await relist(reader, record);
            listedAt = writer.requests;
          }
          again = record.heldNow(ids);
        }
        const deletes: DeleteStep[] = [];
        const restores: RestoreStep[] = [];
        for (const c of record.contactsOf(ids)) {
          const step = stepFor(c, again.get(c.external_id));
          if (step === null) report.alreadyDone++;
          else if (step.action === 'delete') deletes.push(step);
          else if (step.action === 'restore') {
            if (leaveArchivedOut(step)) restores.push(step);
          } else {
            report.kept++;
            emit({ type: 'step', step });
          }
        }
        if ((await writer.delete(deletes)) || (await writer.restore(restores))) {
          report.interrupted = true;
          break;
        }
      }
      if (!report.interrupted && (await writer.restoreInOrder(conflicts))) report.interrupted = true;
    } catch (error) {
      throw new UndoStoppedError(error, finish(report, started));
    }
    if (!report.interrupted && report.failed === 0) markUndone(record);
    return finish(report, started);
  } finally {
    record.close();
  }
}

function finish(report: UndoReport, started: number): UndoReport {
  report.durationMs = Date.now() - started;
  return report;
}

function markUndone(record: UndoRecord): void {
  if (record.meta().undoneAt === null) record.setMeta({ undoneAt: new Date().toISOString() });
}

/** The contacts `ids` name now: the directory listed when that is fewer requests, else asked. */
/** The directory listed anew into the record's `heldNow()`. */
async function relist(reader: DirectoryReader, record: UndoRecord): Promise<void> {
  const fresh = await DirectoryReader.open({
    client: reader.client,
    agentId: reader.agentId,
    maxRetries: reader.maxRetries,
  });
  await holdListing(fresh, record);
}

/** The directory listed whole into the record's `heldNow()`, read again while it changes under it. */
function holdListing(reader: DirectoryReader, record: UndoRecord): Promise<void> {
  return walkUntilConsistent(() =>
    record.holdNow((put) =>
      reader.list((page) =>
        put(page.map((c) => ({ external_id: c.external_id, id: c.id, state: stateOf(c) }))),
      ),
    ),
  );
}

interface WriterEvents {
  deleted(step: DeleteStep): void;
  /** Gone before its delete reached it. */
  gone(step: DeleteStep): void;
  restored(step: RestoreStep): void;
  /** Refused because another contact holds a value it restores (its email): to try again later. */
  conflict(step: RestoreStep): void;
  failed(step: UndoStep, error: unknown): void;
}

/**
 * The undo's writes: deletes one request each (the API has no batch delete), restores as batch
 * upserts by external_id (a thousand a request, as an import sends), one PATCH each for a batch
 * the service refuses. Each returns true when the signal stopped it before every write was sent.
 */
class Writer {
  /** Write requests sent so far (each attempt's first). */
  requests = 0;
  readonly #client: ContactsClient;
  readonly #agentId: string;
  readonly #paced: PacedRunOptions;
  readonly #on: WriterEvents;

  constructor(client: ContactsClient, agentId: string, paced: PacedRunOptions, on: WriterEvents) {
    this.#client = client;
    this.#agentId = agentId;
    this.#paced = paced;
    this.#on = on;
  }

  async delete(steps: readonly DeleteStep[]): Promise<boolean> {
    const run = await runPaced(
      steps,
      async (step, request) => {
        this.requests++;
        try {
          await this.#client.contacts.delete(step.id, { ...request, agentId: this.#agentId });
          this.#on.deleted(step);
        } catch (error) {
          if (error instanceof NotFoundError && !(error instanceof AgentNotFoundError)) this.#on.gone(step);
          else if (isAboutOneContact(error)) this.#on.failed(step, error);
          else throw error;
        }
      },
      this.#paced,
    );
    return run.interrupted;
  }

  async restore(steps: readonly RestoreStep[]): Promise<boolean> {
    const refused: RestoreStep[] = [];
    const run = await runPaced(
      batches(steps),
      async (batch, request) => {
        let answered: Contact[];
        this.requests++;
        try {
          answered = await this.#client.contacts.upsertMany(
            batch.map(
              (step) => ({ external_id: step.external_id, ...patchOf(step.changes) }) as ContactInput,
            ),
            { ...request, agentId: this.#agentId },
          );
        } catch (error) {
          // One contact the service refuses fails the batch: each is sent alone instead.
          if (!isAboutOneContact(error)) throw error;
          refused.push(...batch);
          return;
        }
        for (const [i, step] of batch.entries()) {
          const answer = answered[i];
          if (!answer || answer.id === step.id) {
            this.#on.restored(step);
            continue;
          }
          // Deleted in the moment since it was read. Made by this very write (new, unchanged
          // since): it goes again. Made again by someone else: the restore wrote into theirs.
          if (answer.created_at === answer.updated_at) {
            await this.#client.contacts.delete(answer.id, { agentId: this.#agentId }).catch(() => {});
            this.#on.gone({ action: 'delete', external_id: step.external_id, id: step.id });
          } else {
            this.#on.failed(
              step,
              new Error(
                `deleted and made again (${answer.id}) while the undo ran: the restore was written into it`,
              ),
            );
          }
        }
      },
      this.#paced,
    );
    if (run.interrupted) return true;
    return this.restoreOneByOne(refused, false);
  }

  /** Restores refused for an email, one at a time in `emailOrder`; a conflict now fails. */
  async restoreInOrder(steps: readonly RestoreStep[]): Promise<boolean> {
    if (steps.length === 0) return false;
    const { freeFirst, order } = emailOrder(steps);
    const one = { ...this.#paced, concurrency: 1 };
    const freed = await runPaced(
      freeFirst,
      async (step, request) => {
        await this.#client.contacts
          .update(step.id, { email: null }, { ...request, agentId: this.#agentId })
          .catch((error: unknown) => {
            if (!isAboutOneContact(error)) throw error;
          });
      },
      one,
    );
    if (freed.interrupted) return true;
    const writer = new Writer(this.#client, this.#agentId, one, this.#on);
    return writer.restoreOneByOne(order, true);
  }

  /** Restores one PATCH each; `last`: a conflict fails instead of waiting for another try. */
  async restoreOneByOne(steps: readonly RestoreStep[], last: boolean): Promise<boolean> {
    const run = await runPaced(
      steps,
      async (step, request) => {
        this.requests++;
        try {
          await this.#client.contacts.update(step.id, patchOf(step.changes), {
            ...request,
            agentId: this.#agentId,
          });
          this.#on.restored(step);
        } catch (error) {
          if (error instanceof NotFoundError && !(error instanceof AgentNotFoundError))
            this.#on.gone({ action: 'delete', external_id: step.external_id, id: step.id });
          else if (!isAboutOneContact(error)) throw error;
          else if (!last && error instanceof ConflictError) this.#on.conflict(step);
          else this.#on.failed(step, error);
        }
      },
      this.#paced,
    );
    return run.interrupted;
  }
}

/**
 * The order in which restores refused for an email another of them holds can go: each after the
 * one holding the email it takes back (the import moved emails along a chain of contacts). In a
 * cycle (contacts that swapped emails) one must give its email up first: `freeFirst`.
 */
export function emailOrder(steps: readonly RestoreStep[]): {
  freeFirst: RestoreStep[];
  order: RestoreStep[];
} {
  const emailOf = (step: RestoreStep, side: 0 | 1) => {
    const value = step.changes.email?.[side];
    return typeof value === 'string' ? value.toLowerCase() : undefined;
  };
  const holders = new Map<string, RestoreStep>();
  for (const step of steps) {
    const now = emailOf(step, 0);
    if (now !== undefined) holders.set(now, step);
  }
  const holderOf = (step: RestoreStep) => {
    const wanted = emailOf(step, 1);
    const holder = wanted === undefined ? undefined : holders.get(wanted);
    return holder === step ? undefined : holder;
  };
  // Each wants at most one email, held by at most one: the walk from any step is a path.
  const state = new Map<RestoreStep, 'on-path' | 'done'>();
  const freeFirst: RestoreStep[] = [];
  const order: RestoreStep[] = [];
  for (const start of steps) {
    const path: RestoreStep[] = [];
    let step: RestoreStep | undefined = start;
    while (step && !state.has(step)) {
      state.set(step, 'on-path');
      path.push(step);
      step = holderOf(step);
    }
    if (step && state.get(step) === 'on-path') freeFirst.push(step);
    for (const done of path.reverse()) {
      state.set(done, 'done');
      order.push(done);
    }
  }
  return { freeFirst, order };
}

/** Restores in batches: MAX_BATCH_SIZE contacts, and bytes under the body limit with margin. */
function* batches(steps: readonly RestoreStep[]): Generator<RestoreStep[]> {
  let batch: RestoreStep[] = [];
  let bytes = 0;
  for (const step of steps) {
    const size = JSON.stringify(step.changes).length + step.external_id.length + 32;
    if (batch.length > 0 && (batch.length >= MAX_BATCH_SIZE || bytes + size > MAX_BATCH_BYTES)) {
      yield batch;
      batch = [];
      bytes = 0;
    }
    batch.push(step);
    bytes += size;
  }
  if (batch.length > 0) yield batch;
}

function fetched(found: Map<string, Contact | null>): Map<string, { id: string; state: ContactState }> {
  const now = new Map<string, { id: string; state: ContactState }>();
  for (const [external, c] of found) if (c) now.set(external, { id: c.id, state: stateOf(c) });
  return now;
}

/** What undoing one contact takes, from what the record holds and what the service holds now. */
export function stepFor(
  c: RecordedContact,
  now: { id: string; state: ContactState } | undefined,
): UndoStep | null {
  const id = now?.id ?? c.id;
  const kept = (reason: KeptReason, changes: FieldChanges = {}): UndoStep => ({
    action: 'kept',
    external_id: c.external_id,
    id,
    reason,
    changes,
  });
  if (!c.priorRead) {
    // Only what the import created was recorded.
    if (now === undefined) return null;
    if (c.action !== 'created') return kept(c.action === 'updated' ? 'not-recorded' : 'unanswered');
  } else if (c.before === null && c.action === 'updated') {
    // Not there when the import read the directory, there when it wrote: someone else made it.
    return now === undefined ? null : kept('existed');
  }
  const created = c.before === null;
  // What the import left: its last answer, else (a write never answered) what the write would make.
  let left = c.after;
  if (left === null && c.intent !== null) {
    left = applyInput(c.before, JSON.parse(c.intent) as ContactInputParsed);
  }
  if (now === undefined) return created ? null : kept('deleted');
  if (c.id !== null && now.id !== c.id) return kept('remade');
  const sinceImport = left === null ? null : fieldChanges(left, now.state);
  const unchangedSince = sinceImport !== null && Object.keys(sinceImport).length === 0;
  if (created) {
    if (unchangedSince) return { action: 'delete', external_id: c.external_id, id: now.id };
    return sinceImport ? kept('changed', sinceImport) : kept('unanswered');
  }
  const sent = new Set(c.sent);
  // A field the import did not send, changed between the read and the write: the state before
  // was read before someone else's change, and restoring it would undo theirs.
  const during = only(fieldChanges(c.before, left), (field) => !sent.has(field));
  if (Object.keys(during).length > 0) return kept('changed-during', during);
  const toBefore = only(fieldChanges(now.state, c.before), (field) => sent.has(field));
  if (Object.keys(toBefore).length === 0) return null;
  if (unchangedSince) return { action: 'restore', external_id: c.external_id, id: now.id, changes: toBefore };
  return sinceImport ? kept('changed', sinceImport) : kept('unanswered');
}

function only(changes: FieldChanges, keep: (field: string) => boolean): FieldChanges {
  return Object.fromEntries(Object.entries(changes).filter(([field]) => keep(field)));
}
