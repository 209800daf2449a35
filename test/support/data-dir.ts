// Every test file gets its own data directory (CONTACTS_DATA_DIR): a library call that keeps an
// undo record without naming a directory must never write into the user's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'contacts-data-'));
process.env.CONTACTS_DATA_DIR = dir;
afterAll(() => rmSync(dir, { recursive: true, force: true }));
