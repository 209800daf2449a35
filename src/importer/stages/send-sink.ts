// The send sink: planned rows go to the service in batches (up to 1000 contacts and under the
// body limit with margin; single rows with `--batch-size 1` or on a service without the batch
// form), as many in flight and no faster than the scheduler allows (src/bulk/scheduler.ts). A
// refused batch is taken apart by the service's own answer: the rows its `users.N` issues name
// are rejected with its message and the rest re-sent in one request; a refusal that names none is
// halved. Rows sharing a lane never overlap (see lanes.ts).
//
// Memory is bounded whatever the file's size or the link's speed: at most `maxHeldRows` rows and
// `maxHeldBytes` of bodies are held between the plan stage and their outcome; past that, `accept`
// waits, and so does reading.
import type { Contact } from '../../api/contact.js';
import { MAX_BODY_BYTES } from '../../api/limits.js';
import { NotSent, pacedAttempts } from '../../bulk/paced.js';
import type { Scheduler } from '../../bulk/scheduler.js';
import type { ContactsClient } from '../../client/client.js';
import { RateLimitError } from '../../client/errors.js';
import { JsonText } from '../../client/json-text.js';
import type { RequestOptions } from '../../client/resources/core.js';
import type { RetryEvent } from '../../client/transport.js';
import { ImportError } from '../errors.js';
import { isRowRejection, namedItems, refusesBatchForm, rejectionReason } from './isolate.js';
import { LaneQueue } from './lanes.js';
import type { ImportEvent } from './report.js';
import type { PlannedRow } from './row-planner.js';
import type { ImportSink, LinkState, RowOutcome } from './sink.js';

/** The body limit less an eighth: room for the envelope, and for a service that counts differently. */
export const MAX_BATCH_BYTES = Math.floor((MAX_BODY_BYTES * 7) / 8);
const ENVELOPE_BYTES = '{"users":[]}'.length;
/** Rows and body bytes held between planning and their outcome. */
const MAX_HELD_ROWS = 8192;
const MAX_HELD_BYTES = 8 * 1024 * 1024;
/** How long ready rows from an input that may pause wait for more to fill a batch (see #lingerFor). */
const LINGER_PAUSE_MS = 20;
const LINGER_MAX_MS = 200;

export interface SendSinkOptions {
  client: ContactsClient;
  agentId: string;
  maxRetries: number;
  /** Contacts a request at most: 1 sends single rows (the single form). */
  batchSize: number;
  scheduler: Scheduler;
  onOutcome: (outcome: RowOutcome) => void;
  emit: (event: ImportEvent) => void;
  /**
   * The agent's newest contact id before the import ('' for none): the batch form does not say
   * what it created, and the service's ids sort in creation order.
   */
  newestIdBefore: string;
  /**
   * The input may pause for as long as it likes (stdin, a FIFO, a device): rows that wait for a
   * batch to fill are sent once it does. A regular file never waits on anyone, so its batches are
   * cut by what the file holds alone, never by how fast it was read. Default true.
   */
  mayPause?: boolean;
  /** Before rows are sent (the undo record reads and keeps what they will change). */
  beforeSend?: ((rows: PlannedRow[]) => Promise<void>) | undefined;
  maxBatchBytes?: number;
  maxHeldRows?: number;
  maxHeldBytes?: number;
}

/**
 * The external_ids this run created, so that a later row of one counts as an update. Bounded:
 * past `MAX_CREATED_KEYS` the oldest give way, and a key repeated that far apart within one
 * second of its creation may count as created twice. (More than the planner's window: a second
 * of an import's rows, the timestamps' resolution.)
 */
const MAX_CREATED_KEYS = 32_768;

class CreatedKeys {
  readonly #keys = new Set<string>();
  /** Oldest first, from the last eviction on (a fresh iterator would walk every deleted entry). */
  #oldest = this.#keys.values();

  has(key: string): boolean {
    return this.#keys.has(key);
  }

  /** Records the key; true, for use in expressions. */
  add(key: string): true {
    if (this.#keys.size >= MAX_CREATED_KEYS && !this.#keys.has(key)) {
      let next = this.#oldest.next();
      if (next.done) {
        this.#oldest = this.#keys.values();
        next = this.#oldest.next();
      }
      this.#keys.delete(next.value as string);
    }
    this.#keys.add(key);
    return true;
  }
}

export class SendSink implements ImportSink {
  readonly #options: SendSinkOptions;
  readonly #queue = new LaneQueue<PlannedRow>();
  readonly #tasks = new Set<Promise<void>>();
  readonly #maxBatchBytes: number;
  readonly #maxHeldRows: number;
  readonly #maxHeldBytes: number;
  #batchForm: boolean;
  #held = 0;
  #heldBytes = 0;
  #readySince = 0;
  #lastAcceptAt = 0;
  #ended = false;
  #stopped = false;
  #failure: { error: unknown } | undefined;
  #space: (() => void) | undefined;
  #drained: (() => void) | undefined;
  #timer: NodeJS.Timeout | undefined;
  #timerAt = Number.POSITIVE_INFINITY;
  #pumpQueued = false;
  #requests = 0;
  #throttled = 0;
  readonly #createdKeys = new CreatedKeys();

  constructor(options: SendSinkOptions) {
    this.#options = options;
    this.#batchForm = options.batchSize > 1;
    this.#maxBatchBytes = options.maxBatchBytes ?? MAX_BATCH_BYTES;
    this.#maxHeldRows = options.maxHeldRows ?? MAX_HELD_ROWS;
    this.#maxHeldBytes = options.maxHeldBytes ?? MAX_HELD_BYTES;
  }

  get failure(): { error: unknown } | undefined {
    return this.#failure;
  }

  get link(): LinkState {
    return {
      inFlight: this.#options.scheduler.inFlight,
      limit: this.#options.scheduler.limit,
      requests: this.#requests,
      throttled: this.#throttled,
    };
  }

  async accept(row: PlannedRow): Promise<void> {
    if (this.#stopped || this.#failure) return;
    this.#lastAcceptAt = Date.now();
    if (this.#queue.ready === 0) this.#readySince = this.#lastAcceptAt;
    this.#queue.push(row);
    this.#held++;
    this.#heldBytes += row.bytes;
    this.#pump();
    while (this.#full() && !this.#stopped && !this.#failure) {
      await new Promise<void>((resolve) => {
        this.#space = resolve;
      });
    }
  }

  finish(): Promise<void> {
    this.#ended = true;
    this.#pump();
    return new Promise((resolve) => {
      this.#drained = resolve;
      this.#checkDrained();
    });
  }

  stop(): number {
    this.#stopped = true;
    const dropped = this.#queue.clear();
    this.#held -= dropped;
    this.#wake();
    this.#checkDrained();
    return dropped;
  }

  #full(): boolean {
    return this.#held >= this.#maxHeldRows || this.#heldBytes >= this.#maxHeldBytes;
  }

  #batchRows(): number {
    return this.#batchForm ? this.#options.batchSize : 1;
  }

  /** Sends what may be sent now; otherwise sets a timer for when it may. */
  #pump(): void {
    const { scheduler } = this.#options;
    while (!this.#stopped && !this.#failure && scheduler.canStart && this.#queue.ready > 0) {
      const now = Date.now();
      const linger = this.#lingerFor(now);
      if (linger > 0) {
        // A file's next row comes with the next accept(), or its end with finish(): both pump.
        if (Number.isFinite(linger)) this.#wakeIn(linger);
        break;
      }
      const wait = scheduler.delay(now);
      if (wait > 0) {
        this.#wakeIn(wait);
        break;
      }
      const rows = this.#queue.take(this.#batchRows(), this.#maxBatchBytes - ENVELOPE_BYTES);
      this.#readySince = now;
      this.#launch(rows, scheduler.sent(now));
    }
    this.#checkDrained();
  }

  /**
   * Milliseconds ready rows should wait for more to fill their batch (0: send now). From a regular
   * file, until the batch is full (Infinity: no timer). From an input that may pause, while rows
   * keep coming, up to LINGER_MAX_MS; once it pauses for LINGER_PAUSE_MS (a pipe that trickles),
   * not at all.
   */
  #lingerFor(now: number): number {
    const q = this.#queue;
    if (q.ready >= this.#batchRows() || q.readyBytes >= this.#maxBatchBytes - ENVELOPE_BYTES) return 0;
    // Nothing more will come (the end, a full buffer), or what waits needs these sent first.
    if (this.#ended || this.#full() || (q.waiting > 0 && this.#options.scheduler.inFlight === 0)) return 0;
    if (this.#options.mayPause === false) return Number.POSITIVE_INFINITY;
    const until = Math.min(this.#lastAcceptAt + LINGER_PAUSE_MS, this.#readySince + LINGER_MAX_MS);
    return Math.max(0, until - now);
  }

  #wakeIn(ms: number): void {
    const at = Date.now() + ms;
    if (this.#timer && this.#timerAt <= at) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#timerAt = Number.POSITIVE_INFINITY;
      this.#pump();
    }, ms);
  }

  #schedulePump(): void {
    if (this.#pumpQueued) return;
    this.#pumpQueued = true;
    queueMicrotask(() => {
      this.#pumpQueued = false;
      this.#pump();
    });
  }

  #launch(rows: PlannedRow[], paceTicket: number): void {
    this.#options.scheduler.acquire();
    const send = () =>
      this.#batchForm ? this.#sendBatch(rows, paceTicket) : this.#sendOne(rows[0]!, paceTicket);
    const { beforeSend } = this.#options;
    const task: Promise<void> = (beforeSend ? beforeSend(rows).then(send) : send())
      .catch((error: unknown) => {
        this.#failure ??= { error };
      })
      .finally(() => {
        this.#options.scheduler.release();
        this.#tasks.delete(task);
        this.#wake();
        this.#pump();
      });
    this.#tasks.add(task);
  }

  #wake(): void {
    const space = this.#space;
    this.#space = undefined;
    space?.();
  }

  #checkDrained(): void {
    if (!this.#drained || this.#tasks.size > 0) return;
    const idle = this.#queue.ready === 0 && this.#queue.waiting === 0;
    if (!(this.#stopped || this.#failure || idle)) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    const drained = this.#drained;
    this.#drained = undefined;
    drained();
  }

  /** A batch, re-sent without the rows the service names, halved when it names none. */
  async #sendBatch(rows: PlannedRow[], paceTicket?: number): Promise<void> {
    let pending = rows;
    let ticket = paceTicket;
    while (pending.length > 0) {
      let contacts: Contact[];
      try {
        contacts = await this.#options.client.contacts.upsertMany(
          pending.map((r) => new JsonText(r.json)),
          this.#request(ticket),
        );
      } catch (error) {
        ticket = undefined;
        if (error instanceof NotSent) return;
        if (!isRowRejection(error)) throw error;
        if (refusesBatchForm(error)) {
          this.#noBatchForm(rejectionReason(error));
          for (const row of pending) await this.#sendOne(row);
          return;
        }
        const named = namedItems(error, pending.length);
        if (named.size > 0) {
          const rest: PlannedRow[] = [];
          pending.forEach((row, i) => {
            const reason = named.get(i);
            if (reason === undefined) rest.push(row);
            else this.#rejected(row, reason);
          });
          pending = rest;
          continue;
        }
        // Refused as a whole, no row named (413, a quota): halves, down to the one row at fault.
        if (pending.length === 1) {
          await this.#sendOne(pending[0]!, undefined, true);
          return;
        }
        const half = Math.ceil(pending.length / 2);
        await this.#sendBatch(pending.slice(0, half));
        await this.#sendBatch(pending.slice(half));
        return;
      }
      if (contacts.length !== pending.length) {
        throw new ImportError(
          `The service answered a batch of ${pending.length} contacts with ${contacts.length}`,
        );
      }
      pending.forEach((row, i) => {
        const contact = contacts[i]!;
        this.#landed(row, this.#created(row, contact, undefined), contact);
      });
      return;
    }
  }

  /**
   * One row in the single form. `probe`: the batch form refused this row alone without naming it;
   * if the single form takes it, the service does not take the batch form.
   */
  async #sendOne(row: PlannedRow, paceTicket?: number, probe = false): Promise<void> {
    let retried = false;
    try {
      const options = this.#request(paceTicket);
      const { contact, created } = await this.#options.client.contacts.upsert(new JsonText(row.json), {
        ...options,
        onRetry: (event) => {
          retried = true;
          options.onRetry?.(event);
        },
      });
      if (probe) this.#noBatchForm('it refused a batch of one row that the single form took');
      // A create whose answer was lost is retried and answered "updated"; its timestamps tell.
      this.#landed(row, this.#created(row, contact, created ? true : retried ? undefined : false), contact);
    } catch (error) {
      if (error instanceof NotSent) return;
      if (!isRowRejection(error)) throw error;
      this.#rejected(row, rejectionReason(error));
    }
  }

  /**
   * Whether this answer created the contact. The single form says so (201: `said`); the batch
   * form does not, nor does a retry whose first answer was lost, so then: a contact newer than the
   * newest before the import, unchanged since its creation. Either way, not when an earlier row of
   * this run created that external_id (within a second the answers look alike).
   */
  #created(row: PlannedRow, contact: Contact, said: boolean | undefined): boolean {
    if (said === true) return this.#createdKeys.add(row.key);
    const created =
      said ??
      ((this.#options.newestIdBefore === '' || contact.id > this.#options.newestIdBefore) &&
        contact.created_at === contact.updated_at);
    return created && !this.#createdKeys.has(row.key) && this.#createdKeys.add(row.key);
  }

  #noBatchForm(reason: string): void {
    if (!this.#batchForm) return;
    this.#batchForm = false;
    this.#options.emit({ type: 'batch-unsupported', reason });
  }

  #landed(row: PlannedRow, created: boolean, contact: Contact): void {
    this.#options.onOutcome({ type: 'landed', row, action: created ? 'created' : 'updated', contact });
    this.#done(row);
  }

  #rejected(row: PlannedRow, reason: string): void {
    this.#options.onOutcome({ type: 'rejected', row, reason });
    this.#done(row);
  }

  /** After the outcome is recorded (the checkpoint marked): the next rows on its lanes may go. */
  #done(row: PlannedRow): void {
    this.#queue.done(row);
    this.#held--;
    this.#heldBytes -= row.bytes;
    this.#wake();
    this.#schedulePump();
  }

  /** Options for one request: every attempt paced, reported to the scheduler and counted. */
  #request(firstTicket: number | undefined): RequestOptions {
    const { scheduler } = this.#options;
    return {
      agentId: this.#options.agentId,
      maxRetries: this.#options.maxRetries,
      onRetry: (event: RetryEvent) => {
        if (event.error instanceof RateLimitError) {
          this.#options.emit({ type: 'throttled', concurrency: scheduler.limit });
        }
      },
      ...pacedAttempts(scheduler, {
        ticket: firstTicket,
        stopped: () => this.#stopped,
        sent: () => {
          this.#requests++;
        },
        answered: (event) => {
          if (event.status === 429) this.#throttled++;
          this.#schedulePump();
        },
      }),
    };
  }
}
