import { Writable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { AttributeDefinition } from '../../../src/api/attribute.js';
import type { Contact } from '../../../src/api/contact.js';
import type { OutStream } from '../../../src/cli/io.js';
import { parseContactColumns } from '../../../src/cli/output/contact-columns.js';
import { chooseFormat } from '../../../src/cli/output/format.js';
import {
  createContactWriter,
  isoTime,
  writeAttributeDefinitions,
  writeContact,
  writeContacts,
  writeRecord,
  writeRecords,
} from '../../../src/cli/output/render.js';

class Collector implements OutStream {
  text = '';
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
}

const T1 = 1_717_156_800; // 2024-05-31T12:00:00Z
const T2 = 1_717_243_200; // 2024-06-01T12:00:00Z

function contact(n: number, overrides: Partial<Contact> = {}): Contact {
  return {
    id: `ct_${String(n).padStart(4, '0')}`,
    external_id: `u_${n}`,
    name: `Person ${n}`,
    email: `p${n}@example.com`,
    phonenumber: '+44 20 7946 0958',
    stripe_accounts: [],
    custom_attributes: {},
    created_at: T1,
    updated_at: T2,
    ...overrides,
  };
}

const ADA = contact(1, {
  name: 'Ada, "the first" Lovelace',
  custom_attributes: { plan: 'pro', score: 42, vip: true },
});
const BOB = contact(2, {
  email: null,
  phonenumber: null,
  custom_attributes: { plan: null, signup: '2024-05-31' },
});
const CAL = contact(3);
const MANY = [ADA, BOB, CAL];

async function* pages(items: Contact[]): AsyncGenerator<Contact> {
  for (const item of items) yield item;
}

async function render(format: 'json' | 'ndjson' | 'csv' | 'table', items: Contact[], options = {}) {
  const out = new Collector();
  const summary = await writeContacts(out, format, pages(items), options);
  return { text: out.text, summary };
}

describe('chooseFormat', () => {
  it('prefers the flag, then the profile, then table on a TTY and json otherwise', () => {
    expect(chooseFormat({ flag: 'csv', profile: 'ndjson', isTTY: true })).toBe('csv');
    expect(chooseFormat({ profile: 'ndjson', isTTY: true })).toBe('ndjson');
    expect(chooseFormat({ isTTY: true })).toBe('table');
    expect(chooseFormat({ isTTY: false })).toBe('json');
    expect(() => chooseFormat({ flag: 'yaml', isTTY: false })).toThrow(/--output/);
  });
});

describe('json', () => {
  it.each([
    [0, []],
    [1, [ADA]],
    [3, MANY],
  ] as const)(
    'streams a valid array of %i contacts, byte-identical to JSON.stringify',
    async (count, items) => {
      const { text, summary } = await render('json', [...items]);
      expect(JSON.parse(text)).toEqual(items);
      expect(text).toBe(`${JSON.stringify(items, null, 2)}\n`);
      expect(summary.count).toBe(count);
    },
  );

  it('writes each contact as it arrives, before the list ends', async () => {
    const out = new Collector();
    const writer = createContactWriter(out, 'json');
    await writer.write(ADA);
    expect(out.text.startsWith('[\n')).toBe(true);
    expect(out.text).toContain('"external_id": "u_1"');
    expect(() => JSON.parse(out.text)).toThrow();
    await writer.write(BOB);
    await writer.end();
    expect(JSON.parse(out.text)).toHaveLength(2);
  });

  it('writes one contact as an object, not an array', async () => {
    const out = new Collector();
    await writeContact(out, 'json', ADA);
    expect(JSON.parse(out.text)).toEqual(ADA);
  });
});

describe('ndjson', () => {
  it('writes one parseable contact per line, nothing for none', async () => {
    const { text, summary } = await render('ndjson', MANY);
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines.map((l) => JSON.parse(l))).toEqual(MANY);
    expect(summary.count).toBe(3);
    expect((await render('ndjson', [])).text).toBe('');
  });

  it('writes each line as soon as the contact arrives', async () => {
    const out = new Collector();
    const writer = createContactWriter(out, 'ndjson');
    await writer.write(CAL);
    expect(JSON.parse(out.text)).toEqual(CAL);
  });
});

describe('csv', () => {
  it('has the standard columns then attr.<name> for every key seen, sorted', async () => {
    const { text } = await render('csv', MANY);
    const rows: string[][] = parse(text);
    expect(rows[0]).toEqual([
      'id',
      'external_id',
      'name',
      'email',
      'phonenumber',
      'stripe_accounts',
      'created_at',
      'updated_at',
      'attr.plan',
      'attr.score',
      'attr.signup',
      'attr.vip',
    ]);
    expect(rows).toHaveLength(4);
  });

  it('quotes, empties nulls, and writes ISO timestamps', async () => {
    const { text } = await render('csv', MANY);
    const records: Record<string, string>[] = parse(text, { columns: true });
    expect(records[0]).toMatchObject({
      name: 'Ada, "the first" Lovelace',
      'attr.plan': 'pro',
      'attr.score': '42',
      'attr.vip': 'true',
      'attr.signup': '',
      created_at: '2024-05-31T12:00:00Z',
      updated_at: '2024-06-01T12:00:00Z',
    });
    expect(records[1]).toMatchObject({
      email: '',
      phonenumber: '',
      'attr.plan': '',
      'attr.signup': '2024-05-31',
    });
  });

  it('streams with attribute names given up front, and reports keys it had no column for', async () => {
    const out = new Collector();
    const writer = createContactWriter(out, 'csv', { attributeNames: ['vip', 'plan'], formulaGuard: true });
    await writer.write(ADA);
    // Header and first row are out before the list ends.
    expect(parse(out.text)).toEqual([
      [
        'id',
        'external_id',
        'name',
        'email',
        'phonenumber',
        'stripe_accounts',
        'created_at',
        'updated_at',
        'attr.vip',
        'attr.plan',
      ],
      [
        'ct_0001',
        'u_1',
        'Ada, "the first" Lovelace',
        'p1@example.com',
        // With the guard (export's CSV), a leading + that a spreadsheet would run as a formula
        // is neutralised with '.
        "'+44 20 7946 0958",
        '',
        '2024-05-31T12:00:00Z',
        '2024-06-01T12:00:00Z',
        'true',
        'pro',
      ],
    ]);
    await writer.write(BOB);
    const summary = await writer.end();
    expect(summary).toEqual({ count: 2, droppedAttributes: ['score', 'signup'] });
  });

  it('writes just the header for no contacts', async () => {
    const { text } = await render('csv', [], { attributeNames: ['plan'] });
    expect(parse(text)).toEqual([
      [
        'id',
        'external_id',
        'name',
        'email',
        'phonenumber',
        'stripe_accounts',
        'created_at',
        'updated_at',
        'attr.plan',
      ],
    ]);
    expect((await render('csv', [])).text.split('\n')[0]).toBe(
      'id,external_id,name,email,phonenumber,stripe_accounts,created_at,updated_at',
    );
  });

  it('writes a single contact as header plus one row', async () => {
    const out = new Collector();
    await writeContact(out, 'csv', ADA);
    const records: Record<string, string>[] = parse(out.text, { columns: true });
    expect(records).toHaveLength(1);
    expect(records[0]?.['attr.score']).toBe('42');
  });
});

describe('table', () => {
  it('shows the contacts, their attributes and ISO dates, without colour when not allowed', async () => {
    const { text, summary } = await render('table', MANY, { color: false });
    for (const value of [
      'u_1',
      'u_2',
      'u_3',
      'p1@example.com',
      'plan=pro',
      'vip=true',
      '2024-06-01T12:00:00Z',
    ]) {
      expect(text).toContain(value);
    }
    // A null attribute is left out of the summary rather than shown as "plan=".
    expect(text).not.toContain('plan=,');
    expect(text).not.toContain('\u001b[');
    expect(summary.count).toBe(3);
  });

  it('draws one line a row under an upper-case header, with no box and no separators', async () => {
    const { text } = await render('table', MANY, { color: false });
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(MANY.length + 1);
    expect(lines[0]).toMatch(/^EXTERNAL_ID\s+NAME\s+EMAIL/);
    expect(text).not.toMatch(/[│┌└├─]/);
    for (const line of lines) expect(line).not.toMatch(/\s$/);
  });

  it('fits the terminal width by cutting the name, never an id, an email or a phone number', async () => {
    const long = contact(9, {
      external_id: 'crm-000000000042',
      name: 'n'.repeat(120),
      email: 'ada.lovelace@example.com',
      phonenumber: '+442079460958',
    });
    const { text } = await render('table', [long], { color: false, width: 80 });
    const lines = text.trimEnd().split('\n');
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
    expect(lines[0]).toMatch(/^EXTERNAL_ID\s+NAME\s+EMAIL\s+PHONENUMBER/);
    for (const whole of ['crm-000000000042', 'ada.lovelace@example.com', '+442079460958']) {
      expect(lines[1]).toContain(whole);
    }
    expect(lines[1]).toMatch(/nnnnnnnnnnnnnnn…/);
    const all = await render('table', [long], { color: false, width: 80, truncate: false });
    expect(all.text).toContain('n'.repeat(120));
  });

  it('leaves out the columns empty on the page', async () => {
    const { text } = await render('table', MANY, { color: false });
    const header = text.split('\n')[0];
    expect(header).toMatch(/^EXTERNAL_ID\s+NAME\s+EMAIL\s+PHONENUMBER\s+ATTRIBUTES\s+UPDATED_AT$/);
    const bare = await render('table', [contact(1, { name: null, email: null, phonenumber: null })], {
      color: false,
    });
    expect(bare.text.split('\n')[0]).toMatch(/^EXTERNAL_ID\s+UPDATED_AT$/);
  });

  it('on a narrow terminal leaves out the time, then the summaries, before the name gets unreadable', async () => {
    const rich = contact(1, {
      name: 'Grace Brewster Murray Hopper',
      email: 'grace@navy.example.mil',
      phonenumber: '+14155550123',
      stripe_accounts: [{ label: 'main', stripe_id: 'cus_123456789' }],
      custom_attributes: { plan: 'pro' },
    });
    const header = async (width: number) =>
      (await render('table', [rich], { color: false, width })).text.split('\n')[0]!.split(/\s+/);
    expect(await header(160)).toEqual([
      'EXTERNAL_ID',
      'NAME',
      'EMAIL',
      'PHONENUMBER',
      'STRIPE',
      'ATTRIBUTES',
      'UPDATED_AT',
    ]);
    expect(await header(110)).toEqual([
      'EXTERNAL_ID',
      'NAME',
      'EMAIL',
      'PHONENUMBER',
      'STRIPE',
      'ATTRIBUTES',
    ]);
    expect(await header(80)).toEqual(['EXTERNAL_ID', 'NAME', 'EMAIL', 'PHONENUMBER']);
    const narrow = (await render('table', [rich], { color: false, width: 80 })).text;
    expect(narrow).toContain('Grace Brewster Murray Hopper');
    // Narrower still: the name goes too, and what is left is drawn whole, wider than asked.
    const tiny = (await render('table', [rich], { color: false, width: 30 })).text;
    expect(tiny.split('\n')[0]!.split(/\s+/)).toEqual(['EXTERNAL_ID', 'EMAIL', 'PHONENUMBER']);
    expect(tiny).toContain('grace@navy.example.mil  +14155550123');
  });

  it('draws the columns asked for, in that order, empty or not, and none left out for width', async () => {
    const columns = parseContactColumns('phone,id,stripe,attr.plan,created_at,attr.missing');
    const { text } = await render('table', [ADA, BOB], { color: false, width: 40, columns });
    const [header, ada, bob] = text.trimEnd().split('\n');
    expect(header!.split(/\s+/)).toEqual([
      'PHONENUMBER',
      'ID',
      'STRIPE',
      'ATTR.PLAN',
      'CREATED_AT',
      'ATTR.MISSING',
    ]);
    expect(ada).toMatch(/^\+44 20 7946 0958\s+ct_0001\s+pro\s+2024-05-31T12:00:00Z$/);
    expect(bob).toMatch(/^\s+ct_0002\s+2024-05-31T12:00:00Z$/);
  });

  it('draws nothing for an empty list: the command says so in words', async () => {
    const { text } = await render('table', [], { color: false });
    expect(text).toBe('');
  });

  it('without a terminal width, cuts long text so rows stay readable, but not an email', async () => {
    const email = `${'e'.repeat(60)}@example.com`;
    const long = contact(9, { name: 'x'.repeat(200), email });
    const { text } = await render('table', [long], { color: false, maxCellWidth: 20 });
    expect(text).toContain(`${'x'.repeat(19)}…`);
    expect(text).not.toContain('x'.repeat(20));
    expect(text).toContain(email);
  });

  it('shows one contact as key/value rows, custom attributes as attr.<name>', async () => {
    const out = new Collector();
    await writeContact(out, 'table', ADA, { color: false });
    const lines = out.text.split('\n');
    const row = (key: string) => lines.find((l) => l.startsWith(`${key} `));
    expect(row('external_id')).toContain('u_1');
    expect(row('attr.plan')).toContain('pro');
    expect(row('attr.vip')).toContain('true');
    expect(row('created_at')).toContain('2024-05-31T12:00:00Z');
  });
});

describe('backpressure', () => {
  it('waits for a slow stream to drain and loses nothing', async () => {
    let received = '';
    let waits = 0;
    const slow = new Writable({
      highWaterMark: 64,
      decodeStrings: false,
      write(chunk, _enc, callback) {
        received += String(chunk);
        setImmediate(callback);
      },
    });
    slow.on('drain', () => waits++);
    const items = Array.from({ length: 50 }, (_, i) => contact(i));
    await writeContacts(slow, 'ndjson', pages(items));
    await new Promise<void>((resolve) => slow.end(resolve));
    expect(waits).toBeGreaterThan(0);
    expect(
      received
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).external_id),
    ).toEqual(items.map((c) => c.external_id));
  });
});

describe('attribute definitions and records', () => {
  const defs: AttributeDefinition[] = [
    { name: 'plan', type: 'text', label: 'Plan', description: null, archived: false },
    { name: 'score', type: 'number', label: 'Score', description: 'Lead score', archived: true },
  ];

  it('writes definitions in every format', async () => {
    const csv = new Collector();
    await writeAttributeDefinitions(csv, 'csv', defs);
    expect(parse(csv.text, { columns: true })).toEqual([
      { name: 'plan', type: 'text', label: 'Plan', description: '', archived: 'false' },
      { name: 'score', type: 'number', label: 'Score', description: 'Lead score', archived: 'true' },
    ]);

    const json = new Collector();
    await writeAttributeDefinitions(json, 'json', defs);
    expect(JSON.parse(json.text)).toEqual(defs);

    const table = new Collector();
    await writeAttributeDefinitions(table, 'table', defs, { color: false });
    expect(table.text).toContain('Lead score');
    expect(table.text).toMatch(/score\s.*number/);
  });

  it('writes generic records with the union of their keys', async () => {
    const out = new Collector();
    await writeRecords(out, 'csv', [{ a: 1 }, { b: { nested: true } }]);
    expect(parse(out.text)).toEqual([
      ['a', 'b'],
      ['1', ''],
      ['', '{"nested":true}'],
    ]);
  });

  it('writes a single record as key/value pairs', async () => {
    const out = new Collector();
    await writeRecord(out, 'table', { profile: 'default', key: 'bk_...1234' }, { color: false });
    expect(out.text).toMatch(/^profile\s+default$/m);
    expect(out.text).toContain('bk_...1234');
    const json = new Collector();
    await writeRecord(json, 'json', { profile: 'default' });
    expect(JSON.parse(json.text)).toEqual({ profile: 'default' });
  });
});

describe('isoTime', () => {
  it('formats Unix seconds without milliseconds', () => {
    expect(isoTime(0)).toBe('1970-01-01T00:00:00Z');
    expect(isoTime(T1)).toBe('2024-05-31T12:00:00Z');
  });
});

describe('the spreadsheet-formula guard', () => {
  it('is off by default (CSV for scripts) and on with formulaGuard (CSV for a spreadsheet)', async () => {
    const raw = new Collector();
    await writeContacts(raw, 'csv', [ADA], { attributeNames: [] });
    expect(raw.text).toContain(',+44 20 7946 0958,');
    const guarded = new Collector();
    await writeContacts(guarded, 'csv', [ADA], { attributeNames: [], formulaGuard: true });
    expect(guarded.text).toContain(",'+44 20 7946 0958,");
  });
});
