// The plan step: what an import makes of its input before a row is sent, decided once.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ImportError } from '../../src/importer/errors.js';
import type { PlanNote } from '../../src/importer/notes.js';
import { planImport } from '../../src/importer/plan.js';
import { openSource } from '../../src/importer/sources/index.js';
import { DEFINITIONS, fixture } from './helpers.js';

async function plan(
  name: string,
  text: string,
  options: Omit<Parameters<typeof planImport>[1], 'definitions'> = {},
) {
  const notes: PlanNote[] = [];
  const source = await openSource(await fixture(name, text));
  try {
    const planned = await planImport(source, {
      definitions: DEFINITIONS,
      onNote: (note) => notes.push(note),
      ...options,
    });
    return { plan: planned, notes, source };
  } finally {
    source.close();
  }
}

describe('planImport', () => {
  it("plans a table's columns: the mapping, the key, the date columns and the policies", async () => {
    const { plan: p, notes } = await plan(
      'people.csv',
      'User ID,Full Name,Signup Date,Plan\n1,Ann,2024-03-22 17:59,pro\n',
      { timeZone: 'Europe/Paris', dateOrder: 'dmy', defaultCountry: 'GB', strict: true },
    );
    expect(p).toMatchObject({
      reading: 'columns',
      format: 'csv',
      header: ['User ID', 'Full Name', 'Signup Date', 'Plan'],
      key: { from: 'column', column: 'User ID' },
      dateColumns: [{ index: 2, header: 'Signup Date' }],
      timeZone: 'Europe/Paris',
      dateOrder: 'dmy',
      defaultCountry: 'GB',
      strict: true,
      emptyStrings: false,
      watchLocalTimes: false,
    });
    expect(p.mapping?.columns.map((targets) => targets.map((t) => t.kind))).toEqual([
      ['field'],
      ['field'],
      ['attribute'],
      ['attribute'],
    ]);
    expect(notes).toEqual([]);
  });

  it('keys a table without an id column by its email, and watches for local times when no zone is given', async () => {
    const { plan: p } = await plan('e.csv', 'Email,Signup Date\nann@example.com,2024-03-22\n');
    expect(p.key).toEqual({ from: 'email', column: 'Email' });
    expect(p.timeZone).toBeUndefined();
    expect(p.watchLocalTimes).toBe(true);
  });

  it("reads JSON records by the contract's names, and says a zone does not apply to them", async () => {
    const { plan: p, notes } = await plan('r.ndjson', '{"external_id":"1"}\n', { timeZone: 'Asia/Tokyo' });
    expect(p).toMatchObject({
      reading: 'records',
      mapping: undefined,
      key: { from: 'record' },
      dateColumns: [],
    });
    expect(p.timeZone).toBeUndefined();
    expect(notes).toEqual([
      {
        code: 'time_zone_not_applied',
        message: "The time zone Asia/Tokyo is not applied: JSON records carry the contract's own date-times",
        timeZone: 'Asia/Tokyo',
        reason: "JSON records carry the contract's own date-times",
      },
    ]);
  });

  it("reads a known tool's JSON export as columns, recognised as its source opened", async () => {
    const { plan: p, source } = await plan(
      'users.json',
      '{"id": 7, "name": "Ann", "email": "ann@example.com", "role": "end-user", "ticket_restriction": null}\n',
    );
    expect(source.profile?.id).toBe('zendesk');
    expect(p.reading).toBe('columns');
    expect(p.mapping?.system?.id).toBe('zendesk');
    expect(p.key).toEqual({ from: 'column', column: 'id' });
  });

  it("reads a vCard's properties by its own columns, keyed by the card", async () => {
    const stdin = Readable.from([
      Buffer.from('BEGIN:VCARD\r\nVERSION:3.0\r\nUID:u1\r\nFN:Ann\r\nEND:VCARD\r\n'),
    ]);
    const source = await openSource('-', { stdin, format: 'vcf' });
    const p = await planImport(source, { definitions: [] });
    source.close();
    expect(p).toMatchObject({ reading: 'vcard', key: { from: 'vcard' } });
    expect(p.mapping?.columns[0]).toEqual([{ kind: 'field', field: 'external_id' }]);
  });

  it('refuses column overrides where there are no columns, before anything is read', async () => {
    const maps = [{ header: 'x', targets: [] }];
    const error = await plan('r.ndjson', '{"external_id":"1"}\n', { maps }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportError);
    expect((error as ImportError).detail).toEqual({ code: 'map_not_applicable', format: 'ndjson' });
  });

  it("tells a header one column short of a known export's", async () => {
    const { notes } = await plan('users.csv', 'User ID,Email,Web sessions\n1,ann@example.com,3\n');
    expect(notes).toMatchObject([
      {
        code: 'export_nearly_recognised',
        export: 'Intercom users export',
        missing: 'Unsubscribed from Emails',
      },
    ]);
  });
});
