// The importer as a library ("contacts-cli/import"): runImport and undoImport with their errors
// and records, as the same objects the importer holds, without the CLI or the mock.
import { describe, expect, it } from 'vitest';
import * as entry from '../src/import.js';
import { ImportError, MappingError } from '../src/importer/errors.js';
import { runImport } from '../src/importer/pipeline.js';
import { listUndoRecords } from '../src/undo/record.js';
import { undoImport } from '../src/undo/undo.js';
import { undoDir } from '../src/util/data-dir.js';
import { loadedWith } from './helpers/import-graph.js';

describe('the import entry', () => {
  it('offers the import, its undo and their errors, the same objects as in their modules', () => {
    expect(entry.runImport).toBe(runImport);
    expect(entry.undoImport).toBe(undoImport);
    expect(entry.listUndoRecords).toBe(listUndoRecords);
    expect(entry.undoDir).toBe(undoDir);
    expect(entry.ImportError).toBe(ImportError);
    expect(new entry.MappingError('x')).toBeInstanceOf(ImportError);
    expect(new MappingError('x')).toBeInstanceOf(entry.ImportError);
    for (const name of ['ImportStoppedError', 'UndoRefusedError', 'UndoStoppedError', 'UndoRecordError']) {
      expect(new (entry as unknown as Record<string, new (m: string) => Error>)[name]!('m')).toBeInstanceOf(
        Error,
      );
    }
  });

  it('loads neither the CLI nor the mock', () => {
    const { modules, packages } = loadedWith('import.ts');
    expect([...modules].filter((m) => m.startsWith('cli/') || m.startsWith('mock/'))).toEqual([]);
    expect(packages.has('commander')).toBe(false);
    expect(packages.has('libsql')).toBe(false);
  });
});
