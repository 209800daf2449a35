// JSON records read as a table: a recognised export by its first object's keys, another system's
// by the fields of its first records (nested ones by their path); records in the contract's own
// shape are left as they are.
import { describe, expect, it } from 'vitest';
import { EXPORT_PROFILES } from '../../src/importer/exports.js';
import { readAsExportTable } from '../../src/importer/json-export.js';
import type { SourceNote } from '../../src/importer/notes.js';
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

  it("leaves records in the contract's shape as they are, first record still first", async () => {
    const source = sourceOf([
      { external_id: 'u1', custom_attributes: { plan: 'pro' } },
      { external_id: 'u2' },
    ]);
    await readAsExportTable(source);
    expect(source.profile).toBeUndefined();
    expect(source.keys).toEqual(['external_id', 'custom_attributes']);
    expect(source.header).toBeUndefined();
    expect((await collect(source)).map((r) => [r.record.external_id, r.raw])).toEqual([
      ['u1', undefined],
      ['u2', undefined],
    ]);
  });

  it("reads another system's records as a table: nested fields by their path, every field of the first records", async () => {
    const source = sourceOf([
      { id: 101, properties: { firstname: 'Ada', email: 'ada@example.com' }, tags: ['a', 'b'] },
      { id: 102, properties: { firstname: 'Alan', phone: '+44 20 7946 0019', address: {} }, _line: 3 },
      { id: 103, properties: { firstname: 'Grace', extra: 'x' } },
    ]);
    await readAsExportTable(source);
    expect(source.profile).toBeUndefined();
    expect(source.keys).toEqual(['id', 'properties', 'tags']);
    // A rejects file's own keys are no columns; an empty object is no value.
    expect(source.header).toEqual([
      'id',
      'properties.firstname',
      'properties.email',
      'tags',
      'properties.phone',
      'properties.address',
      'properties.extra',
    ]);
    const records = await collect(source);
    expect(records.map((r) => r.raw)).toEqual([
      ['101', 'Ada', 'ada@example.com', 'a, b', undefined, undefined, undefined],
      ['102', 'Alan', undefined, undefined, '+44 20 7946 0019', undefined, undefined],
      ['103', 'Grace', undefined, undefined, undefined, undefined, 'x'],
    ]);
  });

  it("reads a list of objects by its items' places, as numbered columns (Google's people: phoneNumbers.0.value)", async () => {
    const source = sourceOf([
      {
        resourceName: 'people/c1',
        emailAddresses: [{ value: 'ada@example.com' }, { value: 'ada2@example.com' }],
        phoneNumbers: [{ value: '+44 20 7946 0018', type: 'mobile' }],
      },
    ]);
    await readAsExportTable(source);
    expect(source.header).toEqual([
      'resourceName',
      'emailAddresses.0.value',
      'emailAddresses.1.value',
      'phoneNumbers.0.value',
      'phoneNumbers.0.type',
    ]);
    expect((await collect(source))[0]!.raw).toEqual([
      'people/c1',
      'ada@example.com',
      'ada2@example.com',
      '+44 20 7946 0018',
      'mobile',
    ]);
  });

  it("reads the contract's field names without an external_id as a table, custom attributes by their name", async () => {
    const source = sourceOf([{ name: 'Ada', email: 'ada@example.com', custom_attributes: { plan: 'pro' } }]);
    await readAsExportTable(source);
    expect(source.header).toEqual(['name', 'email', 'plan']);
    expect((await collect(source))[0]!.raw).toEqual(['Ada', 'ada@example.com', 'pro']);
  });

  it('decides from the first record the source could read', async () => {
    const broken = sourceOf([{}, { id: 2, email: 'b@example.com', full_name: 'B' }]);
    const records = broken.records;
    broken.records = (async function* () {
      let first = true;
      for await (const r of records) {
        yield first ? { ...r, error: 'not JSON' } : r;
        first = false;
      }
    })();
    await readAsExportTable(broken);
    expect(broken.header).toEqual(['id', 'email', 'full_name']);
    expect((await collect(broken)).map((r) => r.raw)).toEqual([undefined, ['2', 'b@example.com', 'B']]);
  });

  it('says which fields it does not read: first seen after the records that made the columns, or past their bound', async () => {
    const notes: SourceNote[] = [];
    const rows = Array.from({ length: 101 }, (_, i) => ({ id: i + 1, email: `u${i}@example.com` }));
    const late = sourceOf([...rows, { id: 102, email: 'z@example.com', phone: '+44 20 7946 0010' }]);
    await readAsExportTable(late, (n) => notes.push(n));
    expect(late.header).toEqual(['id', 'email']);
    await collect(late);
    expect(notes).toEqual([
      {
        code: 'json_fields_unread',
        message: 'users.json: line 102 has fields the first 100 records do not, which are not read ("phone")',
        fields: ['phone'],
        line: 102,
      },
    ]);
    // Ids as keys: a nested object of thousands of fields is one cell, and columns have a bound.
    const wide = sourceOf([
      { id: 1, meta: Object.fromEntries(Array.from({ length: 1500 }, (_, k) => [`k${k}`, 1])) },
      { id: 2, ...Object.fromEntries(Array.from({ length: 2100 }, (_, k) => [`f${k}`, 1])) },
    ]);
    const said: SourceNote[] = [];
    await readAsExportTable(wide, (n) => said.push(n));
    expect(wide.header).toHaveLength(2000);
    expect(wide.header?.slice(0, 3)).toEqual(['id', 'meta', 'f0']);
    expect((await collect(wide))[0]!.raw?.[1]).toMatch(/^\{"k0":1,/);
    expect(said[0]).toMatchObject({
      code: 'json_fields_unread',
      fields: ['f1998', 'f1999', 'f2000', 'f2001', 'f2002'],
    });
  });

  it('refuses a record whose dotted key and nested field would be one column, neither value lost', async () => {
    const source = sourceOf([
      { id: 1, name: { first: 'Ann' }, email: 'a@example.com' },
      { id: 2, 'name.first': 'Bob', email: 'b@example.com' },
      { id: 3, name: { first: 'Cy' }, 'name.first': null },
    ]);
    await readAsExportTable(source);
    expect(source.header).toEqual(['id', 'name.first', 'email']);
    const records = await collect(source);
    expect(records.map((r) => r.error)).toEqual([
      undefined,
      'the field "name.first" and the field "first" in "name" are both the column "name.first": rename one, so that neither value is lost',
      // An empty value loses nothing.
      undefined,
    ]);
    expect(records[2]!.raw).toEqual(['3', 'Cy', undefined]);
  });

  it('an empty source has no export and no keys', async () => {
    const source = sourceOf([]);
    await readAsExportTable(source);
    expect([source.profile, source.keys]).toEqual([undefined, []]);
    expect(await collect(source)).toEqual([]);
  });
});
