// The loop of an import, in one direction: records are read in file order (a table's first ones
// held by the look-ahead until what they say of the file is known), each is validated, planned
// into its lanes (./row-planner.ts) and given to the sink; what happens to it is counted by the
// tally, and what it says of the whole file is told as a note. Nothing here decides how a row
// is read: the plan did (../plan.ts).
import type { ImportNote } from '../notes.js';
import type { ImportPlan } from '../plan.js';
import type { RowResult, RowValidator } from '../row-validator.js';
import type { ImportSource, SourceRecord } from '../sources/types.js';
import type { LookAhead } from './look-ahead.js';
import { LookAlikeIds } from './look-alike.js';
import type { ImportTally } from './report.js';
import { RowPlanner } from './row-planner.js';
import type { ImportSink } from './sink.js';
import { readRecords } from './source.js';

export interface RowLoopOptions {
  plan: ImportPlan;
  source: ImportSource;
  /** Ctrl-C: reading stops at once. */
  signal: AbortSignal | undefined;
  validate: RowValidator;
  /** The file's evidence the look-ahead feeds: a table's (undefined for records, which have none). */
  lookAhead: LookAhead | undefined;
  /** Whether a row landed in the run resumed (its checkpoint). */
  landed: ((row: number) => boolean) | undefined;
  sink: ImportSink;
  tally: ImportTally;
  say: (note: ImportNote) => void;
  dryRun: boolean;
}

export interface RowLoopEnd {
  /** The input failed (a parse error): the rows read before it went on. */
  readFailure: { error: unknown } | undefined;
  /** The input was read to its end (not stopped by the signal, nor by a failure). */
  readToEnd: boolean;
}

/**
 * Reads `records` (see `readRecords`: the signal ends the wait for the next at once) until they
 * end, the signal aborts, the sink fails or a file cannot be written. Awaits each row the sink
 * takes before reading on, so reading is paced by sending.
 */
export async function runRows(o: RowLoopOptions): Promise<RowLoopEnd> {
  const { validate, sink, tally, dryRun, lookAhead } = o;
  const planner = new RowPlanner({ serialize: !dryRun, keyFromEmail: o.plan.key.from === 'email' });
  const lookAlikes = new LookAlikeIds();

  // Not async: a row that is rejected or skipped costs no promise, one sent costs the sink's own.
  const handle = (record: SourceRecord): Promise<void> | undefined => {
    const result: RowResult = validate(record);
    if (result.note) o.say(result.note);
    if (result.ok) {
      const alike = lookAlikes.check(result.input.external_id, record.line);
      if (alike) tally.notice(record.line, alike);
      if (result.notice) tally.notice(record.line, result.notice);
    }
    if (o.landed?.(record.row)) {
      // Landed in the run resumed: not sent again, but its email is held from here on.
      if (result.ok) planner.landedBefore(record, result.input);
      tally.skipped();
      return;
    }
    if (!result.ok) {
      if (result.blank) tally.empty();
      else tally.reject(record, result.reason, result.codes);
      return;
    }
    if (result.empty) {
      tally.empty();
      return;
    }
    const planned = planner.plan(record, result.input);
    if (!planned.ok) {
      tally.reject(record, planned.reason);
      return;
    }
    if (planned.repeats) {
      const { line, otherName } = planned.repeats;
      tally.repeatedKey(
        record.line,
        `has the key of line ${line} (external_id ${planned.row.key}): it ${dryRun ? 'would update' : 'updates'} that contact` +
          (otherName
            ? `, whose name there is ${JSON.stringify(otherName)} and here ${JSON.stringify(result.input.name)}`
            : ''),
      );
    }
    if (result.fixes) {
      tally.fixing(record, result.fixes);
      // Kept with the row: they go to the fixes file once it lands.
      planned.row.fixes = result.fixes;
    }
    return sink.accept(planned.row);
  };
  const stopped = () => sink.failure !== undefined || tally.writeFailure !== undefined;
  const releaseAhead = async (ahead: LookAhead, checkOrder = true) => {
    for (const held of ahead.release(checkOrder)) {
      if (stopped()) break;
      const sending = handle(held);
      if (sending) await sending;
    }
  };

  let readFailure: { error: unknown } | undefined;
  let readToEnd = false;
  try {
    for await (const record of readRecords(o.source, o.signal)) {
      if (stopped()) break;
      tally.read();
      if (lookAhead?.looking) {
        if (lookAhead.hold(record)) continue;
        await releaseAhead(lookAhead);
        continue;
      }
      const sending = handle(record);
      if (sending) await sending;
    }
    if (lookAhead?.looking) await releaseAhead(lookAhead);
    readToEnd = !o.signal?.aborted;
  } catch (error) {
    // The input itself failed (a parse error): the rows read before it still land, then it is
    // reported. Those held ahead too, with what the rows read say of the file: a date column
    // they leave undecided reads as the rows do without it (its values go to the fixes file).
    readFailure = { error };
    if (lookAhead && lookAhead.held > 0 && !lookAhead.undecided) {
      try {
        await releaseAhead(lookAhead, false);
      } catch {
        // The read failure is what is reported; a sink failure is reported on its own.
      }
    }
  }
  return { readFailure, readToEnd };
}
