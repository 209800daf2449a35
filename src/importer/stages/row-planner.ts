// The plan stage: each valid row, in file order, gets its lanes (rows sharing an external_id, or
// an email one gives up and another takes, must land in file order) and its request body; a row
// that would take an email another external_id of the file holds at that point is rejected here,
// naming the line that holds it, before it can make the service refuse a whole batch.
// (The dry run's per-contact diff against the directory is `../dry-run-plan.ts`, a sink's business.)
import type { ContactInputParsed } from '../../api/contact.js';
import { fieldsOf } from '../../undo/record.js';
import type { FieldProblem } from '../row-validator.js';
import type { SourceRecord } from '../sources/types.js';
import { EmailLedger } from './email-ledger.js';

const NO_FIELDS: Record<string, unknown> = Object.freeze(Object.create(null));

/** A row ready for a sink: checked, ordered, and (for the sender) serialised once. */
export interface PlannedRow {
  /** The record as read; a CSV row keeps only its cells (all a rejects file needs of it). */
  source: SourceRecord;
  /**
   * The contact as checked, kept only when not serialised (the dry run compares it): a sender
   * holds thousands of rows in flight and needs their JSON alone.
   */
  input: ContactInputParsed | undefined;
  /** The external_id. */
  key: string;
  lanes: string[];
  /** The contact as JSON, as it goes into a request body ('' when not serialised). */
  json: string;
  /** UTF-8 bytes of `json`, or an estimate when it was not serialised. */
  bytes: number;
  /** The fields the row sets, as the undo record lists them (JSON), when serialised. */
  sent?: string | undefined;
  /** Fields left out of the contact: they go to the fixes file once it lands. */
  fixes?: readonly FieldProblem[] | undefined;
}

/** A row whose external_id an earlier row of the file has: it updates that contact. */
export interface RepeatedKey {
  /** The earlier row's line. */
  line: number;
  /** The earlier row's name, when this row's differs from it. */
  otherName?: string | undefined;
  /** The two names share no word: two people, not one who changed a name. */
  otherPerson?: boolean;
}

export type PlanResult =
  | { ok: true; row: PlannedRow; repeats?: RepeatedKey | undefined }
  | { ok: false; reason: string };

export interface RowPlannerOptions {
  /** Serialise each row's body (the sender needs it; the dry run does not). Default true. */
  serialize?: boolean;
  ledger?: EmailLedger;
  /**
   * The external_id is the email (the file has no id column): a row whose email an earlier row
   * has, under another person's name, is another person, refused rather than merged into the first.
   */
  keyFromEmail?: boolean;
  /** External_ids remembered to tell a repeated one (past it, the oldest is forgotten). */
  maxKeys?: number;
}

/** External_ids remembered by default for repeats: as many as the email ledger keeps. */
const DEFAULT_MAX_KEYS = 8192;

const nameWords = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
const sameName = (a: string, b: string) => nameWords(a).join(' ') === nameWords(b).join(' ');
/**
 * Names that share no word (`Tom Walker`, `Samuel Evans`) are two people; `Maria Ng-Lee` is still
 * Maria Ng. A name with no word at all (`-`, `?`) says nothing of who it is.
 */
const otherPerson = (a: string, b: string) => {
  const words = new Set(nameWords(a));
  const others = nameWords(b);
  return words.size > 0 && others.length > 0 && !others.some((w) => words.has(w));
};

const sameFirstWord = (a: string, b: string) => nameWords(a)[0] === nameWords(b)[0];

export class RowPlanner {
  readonly #serialize: boolean;
  readonly #ledger: EmailLedger;
  readonly #keyFromEmail: boolean;
  /**
   * External_id -> the last accepted row that named it, and that name (a contact renamed twice,
   * `Maria Ng`, `Maria Lee`, `Mia Lee`, is compared with its last name). Oldest key first, bounded.
   */
  readonly #keys = new Map<string, { line: number; name: string | undefined }>();
  #oldest = this.#keys.keys();
  readonly #maxKeys: number;
  /** The last row's fields sent, and their text: the rows of a file mostly set the same fields. */
  #lastSent: { fields: string[]; text: string } = { fields: [], text: '[]' };

  constructor(options: RowPlannerOptions = {}) {
    this.#serialize = options.serialize ?? true;
    this.#ledger = options.ledger ?? new EmailLedger();
    this.#keyFromEmail = options.keyFromEmail ?? false;
    this.#maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS;
  }

  /** The earlier row of this external_id that was accepted, if any. */
  #repeat(key: string, name: string | null | undefined): RepeatedKey | undefined {
    const earlier = this.#keys.get(key);
    if (earlier === undefined) return undefined;
    if (!earlier.name || !name || sameName(earlier.name, name)) return { line: earlier.line };
    return { line: earlier.line, otherName: earlier.name, otherPerson: otherPerson(earlier.name, name) };
  }

  /** An accepted row's key, remembered for the rows after it, with its name when it gives one. */
  #remember(key: string, name: string | null | undefined, line: number): void {
    if (this.#keys.has(key)) {
      if (name) this.#keys.set(key, { line, name });
      return;
    }
    if (this.#keys.size >= this.#maxKeys) {
      // From where the last eviction stopped: a new iterator would walk every entry deleted since
      // the map last compacted, at each row.
      let next = this.#oldest.next();
      if (next.done) {
        this.#oldest = this.#keys.keys();
        next = this.#oldest.next();
      }
      this.#keys.delete(next.value as string);
    }
    this.#keys.set(key, { line, name: name ?? undefined });
  }

  /** In-file conflicts given up on for room (see EmailLedger). */
  get forgotten(): number {
    return this.#ledger.forgotten;
  }

  plan(source: SourceRecord, input: ContactInputParsed): PlanResult {
    const key = input.external_id;
    const repeats = this.#repeat(key, input.name);
    // Cards keyed by their number: another given name is another person sharing it (a household's
    // phone), where a key of the file's own names one person whatever the spelling.
    if (source.keyedByPhone && repeats?.otherName && !sameFirstWord(repeats.otherName, input.name ?? '')) {
      return {
        ok: false,
        reason:
          `external_id: ${key} is already the number of ${repeats.otherName} (line ${repeats.line}), and this card is ` +
          `${input.name}: two people sharing a number are not merged (this card would overwrite that contact); ` +
          'give the cards a UID or an EMAIL to key them by',
      };
    }
    // Two people under one key are never merged: the later row would overwrite the earlier's
    // contact. It waits in the rejects file, where the earlier row is named.
    if (repeats?.otherPerson) {
      return {
        ok: false,
        reason: this.#keyFromEmail
          ? `email: ${input.email} is already the email of ${repeats.otherName} (line ${repeats.line}), and this row is ` +
            `${input.name}: two people with one email are not merged (the service keeps one contact an email)`
          : `external_id: ${key} is already the key of ${repeats.otherName} (line ${repeats.line}), and this row is ` +
            `${input.name}: two people with one external_id are not merged (this row would overwrite that contact); ` +
            'give this row its own external_id, or, if it is one person renamed, import the rejects file',
      };
    }
    const claim = this.#ledger.claim(key, input.email, source.line, source.title);
    if (!claim.ok) {
      return {
        ok: false,
        reason:
          claim.heldByTitle === undefined
            ? `email: ${input.email} is already the email of line ${claim.heldByLine} ` +
              '(another external_id; the service refuses two contacts with one email)'
            : `email: ${input.email} is already the email of ${claim.heldByTitle} (line ${claim.heldByLine}; ` +
              'another external_id: the service refuses two contacts with one email)',
      };
    }
    this.#remember(key, input.name, source.line);
    // The external_id's lane, then the emails' (see EmailLedger.emailLane), each once.
    const lanes = [key];
    for (const lane of claim.emailLanes) if (lane !== key) lanes.push(lane);
    if (!this.#serialize)
      return { ok: true, row: { source, input, key, lanes, json: '', bytes: 0 }, repeats };
    const json = JSON.stringify(input);
    const kept: SourceRecord =
      source.raw === undefined
        ? source
        : { row: source.row, line: source.line, record: NO_FIELDS, raw: source.raw };
    return {
      ok: true,
      row: {
        source: kept,
        input: undefined,
        key,
        lanes,
        json,
        bytes: Buffer.byteLength(json),
        sent: this.#sentText(input),
      },
      repeats,
    };
  }

  /** The fields the input sets, as JSON text: the last row's text when they are the same. */
  #sentText(input: ContactInputParsed): string {
    const fields = fieldsOf(input);
    const last = this.#lastSent;
    if (fields.length !== last.fields.length || fields.some((f, i) => f !== last.fields[i]))
      this.#lastSent = { fields, text: JSON.stringify(fields) };
    return this.#lastSent.text;
  }

  /** A row that landed in an earlier run: its email is held, whatever the file said before it. */
  landedBefore(source: SourceRecord, input: ContactInputParsed): void {
    this.#remember(input.external_id, input.name, source.line);
    this.#ledger.hold(input.external_id, input.email, source.line, source.title);
  }
}
