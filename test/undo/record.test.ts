// The undo record on disk: one SQLite file per import, its owner's only, the last 20 per agent;
// the state before committed before writes, the intent before the send, the answer after it.
import { readdirSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listUndoRecords, RECORDS_KEPT, UndoRecord, UndoRecordError } from '../../src/undo/record.js';
import type { ContactState } from '../../src/undo/state.js';
import { tempDir } from '../helpers/mock.js';

const state = (name: string): ContactState => ({
  name,
  email: null,
  phonenumber: null,
  stripe_accounts: [],
  custom_attributes: {},
});
const init = (agentId = 'a1') => ({
  agentId,
  service: 'https://api.example.com',
  input: '/data/in.csv',
  results: null,
  full: true,
});

describe('UndoRecord', () => {
  it('keeps the state before of contacts not yet written, and each write once, first action kept', async () => {
    const dir = await tempDir();
    const record = await UndoRecord.create(dir, init());
    await record.replacePrior(async (put) =>
      put([
        { external_id: 'old', state: state('Old') },
        { external_id: 'other', state: state('Other') },
      ]),
    );
    record.intend(
      [
        { key: 'old', json: '{"external_id":"old","name":"New"}' },
        { key: 'new', json: '{}' },
      ],
      undefined,
      true,
    );
    record.landed('old', 'ct_1', 'updated', state('New'));
    record.landed('new', 'ct_2', 'created', state('Fresh'));
    record.flush();
    // A later listing (a resumed run) does not replace the state before of what was written.
    await record.replacePrior(async (put) => put([{ external_id: 'old', state: state('New') }]));
    record.intend([{ key: 'new', json: '{}' }], undefined, true);
    record.landed('new', 'ct_2', 'updated', state('Fresher'));
    record.flush();
    expect(record.counts()).toEqual({ created: 1, updated: 1, written: 2 });
    expect(record.contacts(0, 10)).toEqual([
      expect.objectContaining({
        external_id: 'old',
        action: 'updated',
        before: state('Old'),
        after: state('New'),
        intent: null,
      }),
      expect.objectContaining({
        external_id: 'new',
        action: 'created',
        before: null,
        after: state('Fresher'),
        priorRead: true,
      }),
    ]);
    expect(record.end('finished')).toBe(true);
    const [summary] = await listUndoRecords(dir, 'a1');
    expect(summary).toMatchObject({
      status: 'finished',
      created: 1,
      updated: 1,
      service: 'https://api.example.com',
    });
  });

  it("is its owner's only, and keeps the last 20 imports of each agent", async () => {
    const dir = await tempDir();
    const paths: string[] = [];
    for (let i = 0; i < RECORDS_KEPT + 3; i++) {
      const r = await UndoRecord.create(dir, init());
      r.intend([{ key: `k${i}`, json: '{}' }], undefined, true);
      r.landed(`k${i}`, `ct_${i}`, 'created', state('x'));
      r.end('finished');
      paths.push(r.path);
    }
    // Imports that wrote nothing keep no record, and push none out.
    for (let i = 0; i < 3; i++) expect((await UndoRecord.create(dir, init())).end('finished')).toBe(false);
    const other = await UndoRecord.create(dir, init('a2'));
    other.intend([{ key: 'o', json: '{}' }], undefined, true);
    other.end('finished');
    other.close();
    expect(readdirSync(dirname(other.path))).toEqual([basename(other.path)]);
    const kept = await listUndoRecords(dir, 'a1');
    expect(kept).toHaveLength(RECORDS_KEPT);
    expect(kept.map((r) => r.path)).toEqual(paths.slice(3).reverse());
    expect(statSync(paths.at(-1)!).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(await listUndoRecords(dir, 'a2')).toHaveLength(1);
  });

  it('is removed when the import wrote nothing; a rejected row leaves nothing behind', async () => {
    const dir = await tempDir();
    const record = await UndoRecord.create(dir, init());
    record.intend([{ key: 'x', json: '{}' }], undefined, true);
    record.rejected('x');
    expect(record.end('finished')).toBe(false);
    expect(await listUndoRecords(dir)).toEqual([]);
  });

  it('refuses a file that is not an undo record', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'x.db'), 'not sqlite at all, just text');
    await expect(UndoRecord.open(join(dir, 'x.db'))).rejects.toThrow(UndoRecordError);
    await expect(UndoRecord.open(join(dir, 'missing.db'))).rejects.toThrow(/Cannot open the undo record/);
  });
});
