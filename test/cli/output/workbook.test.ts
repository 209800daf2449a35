// Workbooks written as a stream: one sheet, a header, and cells typed as the service holds them,
// read back here with excelts as a spreadsheet would.
import { Workbook } from '@cj-tech-master/excelts';
import { describe, expect, it } from 'vitest';
import type { Contact } from '../../../src/api/contact.js';
import {
  type ByteSink,
  contactColumns,
  outStreamSink,
  writeContactsWorkbook,
  writeWorkbook,
} from '../../../src/cli/output/workbook.js';

function memorySink(): ByteSink & { bytes(): Buffer } {
  const chunks: Buffer[] = [];
  return {
    write: async (chunk) => {
      chunks.push(Buffer.from(chunk));
    },
    bytes: () => Buffer.concat(chunks),
  };
}

async function readSheet(bytes: Buffer) {
  const wb = new Workbook();
  await wb.xlsx.load(bytes);
  const sheet = wb.worksheets[0]!;
  const rows: unknown[][] = [];
  sheet.eachRow((row) => {
    rows.push((row.values as unknown[]).slice(1));
  });
  return { name: sheet.name, rows };
}

const definitions = [
  { name: 'seats', label: 'Seats', type: 'number' as const, description: null, archived: false },
  { name: 'vip', label: 'VIP', type: 'boolean' as const, description: null, archived: false },
  { name: 'renews', label: 'Renews', type: 'date' as const, description: null, archived: false },
  { name: 'plan', label: 'Plan', type: 'text' as const, description: null, archived: false },
];

describe('writeWorkbook', () => {
  it('writes the header and typed cells, and a value its column cannot hold as text', async () => {
    const sink = memorySink();
    const columns = [
      { header: 'n', kind: 'number' as const },
      { header: 'b', kind: 'boolean' as const },
      { header: 'd', kind: 'date' as const },
      { header: 't', kind: 'text' as const },
    ];
    const count = await writeWorkbook(sink, 'Data', columns, [
      [1.5, true, '2024-05-31', '007'],
      ['many', null, 'soon', { a: 1 }],
    ]);
    expect(count).toBe(2);
    const { name, rows } = await readSheet(sink.bytes());
    expect(name).toBe('Data');
    expect(rows[0]).toEqual(['n', 'b', 'd', 't']);
    expect(rows[1]).toEqual([1.5, true, new Date('2024-05-31T00:00:00Z'), '007']);
    expect(rows[2]).toEqual(['many', undefined, 'soon', '{"a":1}']);
  });
});

describe('contact workbooks', () => {
  it('types the attribute columns by their definitions and the times as dates', () => {
    const kinds = Object.fromEntries(contactColumns(definitions).map((c) => [c.header, c.kind]));
    expect(kinds).toMatchObject({
      id: 'text',
      created_at: 'date',
      'attr.seats': 'number',
      'attr.vip': 'boolean',
      'attr.renews': 'date',
      'attr.plan': 'text',
    });
  });

  it('writes every contact, and names the attributes it had no column for', async () => {
    const contact: Contact = {
      id: 'ct_1',
      external_id: 'u1',
      name: 'Ann',
      email: null,
      phonenumber: null,
      custom_attributes: { seats: 3, vip: false, gone: 'x' },
      stripe_accounts: [],
      created_at: 1_700_000_000,
      updated_at: 1_700_000_000,
    };
    async function* contacts() {
      yield contact;
    }
    const sink = memorySink();
    const summary = await writeContactsWorkbook(sink, contacts(), definitions);
    expect(summary).toEqual({ count: 1, droppedAttributes: ['gone'] });
    const { rows } = await readSheet(sink.bytes());
    const row = Object.fromEntries((rows[0] as string[]).map((h, i) => [h, rows[1]![i]]));
    expect(row).toMatchObject({
      external_id: 'u1',
      name: 'Ann',
      created_at: new Date(1_700_000_000_000),
      'attr.seats': 3,
      'attr.vip': false,
    });
  });
});

describe('outStreamSink', () => {
  it('waits for drain when the stream says it is full', async () => {
    let full = true;
    let drain: () => void = () => {};
    const written: Uint8Array[] = [];
    const sink = outStreamSink({
      write: (chunk) => {
        written.push(chunk as unknown as Uint8Array);
        return !full;
      },
      once: (_event, listener) => {
        drain = listener;
      },
    });
    let done = false;
    const pending = sink.write(Buffer.from('a')).then(() => {
      done = true;
    });
    await Promise.resolve();
    expect(done).toBe(false);
    drain();
    await pending;
    full = false;
    await sink.write(Buffer.from('b'));
    expect(written.map((c) => Buffer.from(c).toString())).toEqual(['a', 'b']);
  });
});
