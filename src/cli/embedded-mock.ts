// The `--mock` mode's server: the mock on a free loopback port for this one command, on the
// database in `./.contacts-mock/`. Several commands at once share it through SQLite's own
// locking, and every write is committed before it is answered, so a command that ends (or is
// killed) has nothing left to save.
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type MockServer, startMockServer } from '../mock/server.js';

export async function startEmbeddedMock(dataFile: string): Promise<MockServer> {
  await mkdir(dirname(dataFile), { recursive: true });
  return await startMockServer({ port: 0, dataFile });
}
