// A recognised JSON export read as a table: the first object's keys its header, each object's
// values its cells; any other JSON is left as the contract's field names.
import { describe, expect, it } from 'vitest';
import { EXPORT_PROFILES } from '../../src/importer/exports.js';
import { readAsExportTable } from '../../src/importer/json-export.js';
import type { ImportSource, SourceRecord } from '../../src/importer/sources/types.js';

function sourceOf(records: Record<string, unknown>[]): ImportSource & { closed: boolean } {
  const source = {
    name: 'users.json',
    format: 'ndjson' as const,
    closed: false,
    records: (async function* () {
      let row = 0;
      for (const record of records) {
        row++;
        yield { row, line: row, record } satisfies SourceRecord;
      }
    })(),
    close() {
      source.closed = true;
    },
  };
  return source;
}

const collect = async (source: ImportSource) => {
  const out: SourceRecord[] = [];
  for await (const r of source.records) out.push(r);
  return out;
};

const zendesk = EXPORT_PROFILES.find((p) => p.json)!;

describe('readAsExportTable', () => {
  it('makes a recognised export a table, custom fields as columns of their own', async () => {
    const keys = zendesk.signatures[0]!;
    const base = Object.fromEntries(keys.map((k) => [k, null]));
    const first = { ...base, id: 1, tags: ['vip', 'eu'], user_fields: { plan: 'pro', id: 'x' } };
    const second = { ...base, id: 2, tags: [], user_fields: { plan: null, id: null } };
    const source = sourceOf([first, second]);
    await readAsExportTable(source);
    expect(source.profile?.id).toBe(zendesk.id);
    expect(source.keys).toEqual(Object.keys(first));
    expect(source.header).toContain('plan');
    // A custom field named like a key of the record keeps its parent's name.
    expect(source.header).toContain('user_fields.id');
    const records = await collect(source);
    expect(records).toHaveLength(2);
    const cells = (r: SourceRecord) => Object.fromEntries(source.header!.map((h, i) => [h, r.raw![i]]));
    expect(cells(records[0]!)).toMatchObject({
      id: '1',
      tags: 'vip, eu',
      plan: 'pro',
      'user_fields.id': 'x',
    });
    expect(cells(records[1]!)).toMatchObject({ id: '2', plan: undefined });
  });

  it('leaves other JSON as it is, first record still first', async () => {
    const source = sourceOf([{ external_id: 'u1' }, { external_id: 'u2' }]);
    await readAsExportTable(source);
    expect(source.profile).toBeUndefined();
    expect(source.keys).toEqual(['external_id']);
    expect(source.header).toBeUndefined();
    expect((await collect(source)).map((r) => [r.record.external_id, r.raw])).toEqual([
      ['u1', undefined],
      ['u2', undefined],
    ]);
  });

  it('an empty source has no export and no keys', async () => {
    const source = sourceOf([]);
    await readAsExportTable(source);
    expect([source.profile, source.keys]).toEqual([undefined, []]);
    expect(await collect(source)).toEqual([]);
  });
});
