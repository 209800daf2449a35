// The import's side of an undo: before it writes, the state of what it will change is read (the
// directory listed in pages of a thousand, or the file's own ids asked for, whichever takes fewer
// requests) and kept in the undo record with every answer. When reading would cost more requests
// than the import itself sends (a small file into a large directory), only what the import
// creates is recorded, and it says so; `full` reads anyway.
import { hostname } from 'node:os';
import type { Contact, ContactInputParsed } from '../api/contact.js';
import { DirectoryReader, READS_IN_FLIGHT } from '../bulk/directory.js';
import type { ContactsClient } from '../client/client.js';
import { walkUntilConsistent } from '../client/walk.js';
import { ImportError } from '../importer/errors.js';
import { fieldsSent, UndoRecord } from './record.js';
import { applyInput, type ContactState, fieldChanges, stateOf } from './state.js';

/** 'auto': the states before when reading them is cheap; 'full': always; 'off': no record. */
export const UNDO_CHOICES = ['auto', 'full', 'off'] as const;
export type UndoChoice = (typeof UNDO_CHOICES)[number];

/** Where an import's undo record is, for `undoImport()` and the CLI. */
export interface UndoRef {
  id: string;
  path: string;
  /** False: only what the import created can be taken back (its updates' states before were not read). */
  full: boolean;
}

/** What the recording does that the user should know of, before the import starts. */
export type UndoNote =
  /** The agent's contacts are listed first, to record the state before of those the import changes. */
  | { code: 'undo_reading_directory'; message: string; contacts: number; requests: number }
  /** Only what the import creates is recorded: reading the states before costs too much. */
  | { code: 'undo_created_only'; message: string; reason: string }
  /** The run resumed kept no undo record: undo takes back only what this run writes. */
  | { code: 'undo_resumed_without_record'; message: string };

export interface RecorderOptions {
  client: ContactsClient;
  agentId: string;
  maxRetries: number;
  /** The undo records' directory. */
  dir: string;
  service: string;
  /** The input's absolute path, or `-`. */
  input: string;
  results: string | null;
  choice: 'auto' | 'full';
  /** Rows the import will send, when known. */
  rows: number | undefined;
  batchSize: number;
  /**
   * A resumed import goes on in the record of the run it resumes: its path, as the checkpoint
   * names it (null: that run kept none). Undefined: not a resume.
   */
  resumeRecord?: string | null | undefined;
  /** What the recording does that the user should know of, before the import starts. */
  onNote?: ((note: UndoNote) => void) | undefined;
}

export class UndoRecorder {
  readonly record: UndoRecord;
  /** Whether the states before are read (else only what the import creates can be undone). */
  readonly full: boolean;
  readonly #reader: DirectoryReader;
  /** The directory was listed: every state before is in the record already. */
  readonly #listed: boolean;

  private constructor(init: {
    record: UndoRecord;
    full: boolean;
    reader: DirectoryReader;
    listed: boolean;
  }) {
    this.record = init.record;
    this.full = init.full;
    this.#reader = init.reader;
    this.#listed = init.listed;
  }

  static async start(o: RecorderOptions): Promise<UndoRecorder> {
    const reader = await DirectoryReader.open({
      client: o.client,
      agentId: o.agentId,
      maxRetries: o.maxRetries,
    });
    const importRequests = o.rows === undefined ? undefined : Math.max(1, Math.ceil(o.rows / o.batchSize));
    const list = o.rows === undefined || reader.listingIsCheaper(o.rows);
    const readRequests = list ? reader.pages : (o.rows ?? 0);
    // Reads in flight together cost one round trip: up to that many are free whatever the import.
    const budget = Math.max(importRequests ?? 0, READS_IN_FLIGHT);
    const full = o.choice === 'full' || readRequests <= budget;
    if (full && list && reader.pages > 1) {
      o.onNote?.({
        code: 'undo_reading_directory',
        message: `Reading the ${reader.total} contacts of agent ${o.agentId} first (${reader.pages} requests), to record what this import changes for contacts undo`,
        contacts: reader.total,
        requests: reader.pages,
      });
    }
    if (!full) {
      const why =
        importRequests === undefined
          ? `the input's size is not known, and reading the ${reader.total} contacts of agent ${o.agentId} first takes ${readRequests} requests`
          : `reading the state of ${list ? `the ${reader.total} contacts of agent ${o.agentId}` : `the ${o.rows} contacts it names`} first would take ${readRequests} requests, more than the import's ${importRequests}`;
      o.onNote?.({
        code: 'undo_created_only',
        message: `Recording only the contacts this import creates (undo deletes them; it cannot restore the ones it updates): ${why}.`,
        reason: why,
      });
    }
    const init = {
      agentId: o.agentId,
      service: o.service,
      input: o.input,
      results: o.results,
      full,
    };
    let record: UndoRecord | undefined;
    if (o.resumeRecord) {
      record = await UndoRecord.open(o.resumeRecord).catch(() => undefined);
      const undone = record?.meta().undoStartedAt;
      if (record && undone) {
        record.close();
        throw new ImportError(
          `The import this run would resume was taken back by contacts undo (${undone}): its rows are not in the directory any more. Import the file again from the first row`,
          { detail: { code: 'resume_undone', undoneAt: undone } },
        );
      }
    }
    if (o.resumeRecord !== undefined && !record) {
      o.onNote?.({
        code: 'undo_resumed_without_record',
        message:
          'The run resumed kept no undo record (it was imported without one, or its record is gone): contacts undo takes back only what this run writes',
      });
    }
    record ??= await UndoRecord.create(o.dir, init);
    try {
      // One run that did not read them leaves the whole import partly restorable.
      if (!full && record.meta().full) record.setMeta({ full: false });
      // Writes of the run resumed whose answer never came: whether each reached the service is
      // told by what the service holds now (read with the directory, or asked for).
      const pending = o.resumeRecord ? record.unanswered() : [];
      const pendingIds = new Set(pending.map((p) => p.external_id));
      const now = new Map<string, ContactState>();
      if (full && list) {
        // Read again from the start when the directory changes under the listing.
        await walkUntilConsistent(() => {
          now.clear();
          return record.replacePrior((put) =>
            reader.list((page) => {
              for (const c of page) if (pendingIds.has(c.external_id)) now.set(c.external_id, stateOf(c));
              put(page.map((c) => ({ external_id: c.external_id, state: stateOf(c) })));
            }),
          );
        });
      } else if (pending.length > 0) {
        for (const [id, c] of await reader.fetch([...pendingIds])) if (c) now.set(id, stateOf(c));
      }
      for (const p of pending) {
        // Without a state before (created contacts only), an unanswered write stays unsettled:
        // the undo lists it.
        if (!p.priorRead) continue;
        const held = now.get(p.external_id) ?? null;
        const sent = new Set(fieldsSent(p.intent));
        const made = applyInput(p.before, JSON.parse(p.intent) as ContactInputParsed);
        // It reached the service when a field it changed holds what it wrote (another change of
        // that field since cannot hide the others); a write that changed nothing is either way.
        const changed = Object.keys(fieldChanges(p.before, made)).filter((field) => sent.has(field));
        const differs = new Set(held === null ? [] : Object.keys(fieldChanges(made, held)));
        const reached =
          held !== null && (changed.length === 0 || changed.some((field) => !differs.has(field)));
        record.settle(p.external_id, reached, held);
      }
      if (o.resumeRecord) record.setMeta({ status: 'running', pid: process.pid, host: hostname() });
    } catch (error) {
      // A record that holds nothing yet is not kept: it would shadow the import before it.
      record.end('stopped');
      record.close();
      throw error;
    }
    return new UndoRecorder({ record, full, reader, listed: full && list });
  }

  get ref(): UndoRef {
    return { id: this.record.meta().id, path: this.record.path, full: this.record.meta().full };
  }

  /** Before rows are sent: the states before of those not read yet, and their intents, committed. */
  async beforeSend(rows: readonly { key: string; json: string; sent?: string | undefined }[]): Promise<void> {
    let states: Map<string, ContactState | null> | undefined;
    if (this.full && !this.#listed) {
      const unread = this.record.unwritten([...new Set(rows.map((r) => r.key))]);
      states = new Map();
      for (const [id, c] of await this.#reader.fetch(unread)) states.set(id, c && stateOf(c));
    }
    this.record.intend(rows, states, this.full);
  }

  landed(key: string, action: 'created' | 'updated', contact: Contact): void {
    this.record.landed(key, contact.id, action, stateOf(contact));
  }

  /** The service refused the row: it wrote nothing. */
  rejected(key: string): void {
    this.record.rejected(key);
  }

  flush(): void {
    this.record.flush();
  }

  /** Closes the record; null when the import wrote nothing (no record is kept). */
  end(finished: boolean): UndoRef | null {
    const ref = this.ref;
    const kept = this.record.end(finished ? 'finished' : 'stopped');
    this.record.close();
    return kept ? ref : null;
  }
}
