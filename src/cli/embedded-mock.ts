// The `--mock` mode's server: the mock on a free loopback port for this one command, on the
// database in `./.contacts-mock/`. Several commands at once share it through SQLite's own
// locking, and every write is committed before it is answered, so a command that ends (or is
// killed) has nothing left to save.
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type MockServer, startMockServer } from '../mock/server.js';
import { openSqliteStore } from '../mock/sqlite-store.js';

export async function startEmbeddedMock(dataFile: string): Promise<MockServer> {
  await mkdir(dirname(dataFile), { recursive: true });
  // Each command opens the file: reading it page by page each time would cost every command
  // time in proportion to the data, so only after a stop that was not clean. Damage met later
  // is still named (a `database_damaged` answer); `serve --mock` checks at every start.
  const store = openSqliteStore(dataFile, { integrityCheck: 'after-unclean-stop' });
  return await startMockServer({ port: 0, dataFile, store });
}
