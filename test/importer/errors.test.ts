// The importer's errors carry their data (file, line, column, paths, codes) for a caller to
// word: the CLI, or a library user calling runImport.
import { describe, expect, it } from 'vitest';
import { ContactsError } from '../../src/core/error.js';
import {
  CheckpointMismatchError,
  ImportError,
  MappingError,
  OutputPathError,
  OutputWriteError,
  SourceParseError,
  UnfinishedImportError,
} from '../../src/importer/errors.js';
import { OutputPathError as RuleError } from '../../src/util/output-path.js';

describe('importer errors', () => {
  it('are ImportErrors, and so ContactsErrors, each named by its class', () => {
    const all = [
      new SourceParseError({ file: 'a.csv', line: 3, reason: 'x' }),
      new MappingError('x'),
      new CheckpointMismatchError('c', [{ code: 'size', was: 1, now: 2, reason: 'another file' }]),
      new UnfinishedImportError({ path: 'c', input: 'a.csv' }),
      new OutputWriteError('the rejects file', 'r.csv', new Error('x')),
    ];
    for (const error of all) {
      expect(error).toBeInstanceOf(ImportError);
      expect(error).toBeInstanceOf(ContactsError);
      expect(error.name).toBe(error.constructor.name);
    }
    expect(OutputPathError).toBe(RuleError);
  });

  it('SourceParseError says file, line and column, and keeps each apart', () => {
    const cause = new Error('quote');
    const error = new SourceParseError({
      file: 'a.csv',
      line: 7,
      column: 3,
      reason: 'unclosed quote',
      cause,
    });
    expect(error.message).toBe('a.csv: line 7, column 3: unclosed quote');
    expect([error.file, error.line, error.column, error.reason, error.cause]).toEqual([
      'a.csv',
      7,
      3,
      'unclosed quote',
      cause,
    ]);
    expect(new SourceParseError({ file: 'b.json', line: 2, reason: 'truncated' }).message).toBe(
      'b.json: line 2: truncated',
    );
  });

  it("an ImportError carries its detail and the detail's code, for a caller to word", () => {
    const error = new MappingError('m', {
      detail: { code: 'unknown_target', target: 'plan', suggestion: '' },
    });
    expect([error.code, error.detail]).toEqual([
      'unknown_target',
      { code: 'unknown_target', target: 'plan', suggestion: '' },
    ]);
    expect([new MappingError('m').code, new MappingError('m').detail]).toEqual([undefined, undefined]);
  });

  it('the checkpoint errors carry a code, the path and what the caller needs to word the way on', () => {
    const mismatches = [
      { code: 'content' as const, bytes: 10, reason: 'the file changed' },
      { code: 'agent' as const, was: 'a', now: 'b', reason: 'another agent' },
    ];
    const mismatch = new CheckpointMismatchError('a.csv.checkpoint', mismatches);
    expect([mismatch.code, mismatch.path, mismatch.reasons, mismatch.mismatches]).toEqual([
      'checkpoint_mismatch',
      'a.csv.checkpoint',
      ['the file changed', 'another agent'],
      mismatches,
    ]);
    expect(mismatch.message).toContain('the file changed; another agent');
    const unfinished = new UnfinishedImportError({
      path: 'c',
      input: 'a.csv',
      landed: 1,
      updatedAt: '2026-01-01T00:00:00Z',
    });
    expect(unfinished.code).toBe('unfinished_import');
    expect([unfinished.landed, unfinished.updatedAt]).toEqual([1, '2026-01-01T00:00:00Z']);
    expect(unfinished.message).toContain('1 row landed, last at 2026-01-01T00:00:00Z');
    expect(new UnfinishedImportError({ path: 'c', input: 'a.csv', landed: 2 }).message).toContain(
      '2 rows landed',
    );
  });

  it('OutputWriteError says a full disk or a size limit in words, with the system code', () => {
    const full = new OutputWriteError(
      'the rejects file',
      'r.csv',
      Object.assign(new Error('x'), { code: 'ENOSPC' }),
    );
    expect(full.message).toBe('Cannot write the rejects file r.csv: the disk is full (ENOSPC)');
    expect([full.code, full.file, full.errno]).toEqual(['output_write_failed', 'r.csv', 'ENOSPC']);
    const other = new OutputWriteError(
      'the checkpoint',
      'c',
      Object.assign(new Error('EACCES: denied'), { code: 'EACCES' }),
    );
    expect(other.message).toBe('Cannot write the checkpoint c: EACCES: denied');
    expect(new OutputWriteError('the results file', 'x', 'odd').errno).toBeUndefined();
  });
});
