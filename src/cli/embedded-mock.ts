// The `--mock` mode's server: the mock on a free loopback port for this one command, on the
// database in `./.contacts-mock/`. Several commands at once share it through SQLite's own
// locking, and every write is committed before it is answered, so a command that ends (or is
// killed) has nothing left to save.
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { MockDataFileError } from '../mock/errors.js';
import { type MockServer, startMockServer } from '../mock/server.js';
import { openSqliteStore } from '../mock/sqlite-store.js';

export interface EmbeddedMockOptions {
  /** The JSON data file of versions before the SQLite store: converted once, when the database is new. */
  legacyFile?: string | undefined;
  /** Told about the conversion. */
  note?: (line: string) => void;
}

export async function startEmbeddedMock(
  dataFile: string,
  options: EmbeddedMockOptions = {},
): Promise<MockServer> {
  await mkdir(dirname(dataFile), { recursive: true });
  const legacy = options.legacyFile;
  const convert = legacy !== undefined && !existsSync(dataFile) && existsSync(legacy);
  const store = openSqliteStore(dataFile);
  try {
    // Another command may have converted it meanwhile: only an empty database takes the old state.
    if (convert) {
      let restored: boolean;
      try {
        const snapshot = JSON.parse(await readFile(legacy, 'utf8'));
        // Checked and restored in one unit: a command that converted it first keeps its writes.
        restored = store.atomically(() => {
          if (store.agentIds().length > 0) return false;
          store.restore(snapshot);
          return true;
        });
        // Said only once it is on disk: a failed commit must not pass for a conversion.
        await store.pending();
      } catch (error) {
        throw new MockDataFileError(
          legacy,
          `Cannot convert ${legacy} into ${dataFile}: ${(error as Error).message}`,
          {
            cause: error,
            hint: `Move ${legacy} aside to start with an empty mock.`,
          },
        );
      }
      if (restored)
        options.note?.(
          `Moved the mock's state from ${legacy} (an earlier version's) into the SQLite database ${dataFile}; the JSON file is no longer read.`,
        );
    }
    return await startMockServer({ port: 0, store });
  } catch (error) {
    store.close();
    throw error;
  }
}
