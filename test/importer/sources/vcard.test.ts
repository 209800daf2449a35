// The vCard reader alone: versions, parameters, folding, encodings and its errors.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { openSource } from '../../../src/importer/sources/index.js';

async function read(text: string | Buffer, options: { encoding?: string } = {}) {
  const stdin = Readable.from([typeof text === 'string' ? Buffer.from(text) : text]);
  const notes: string[] = [];
  const source = await openSource('-', {
    stdin,
    format: 'vcf',
    ...options,
    onNote: (note) => notes.push(note.message),
  });
  const rows = [];
  for await (const r of source.records) rows.push({ line: r.line, raw: r.raw, error: r.error });
  return { source, rows, notes };
}

/** The records as the source yields them, whole. */
async function records(text: string) {
  const stdin = Readable.from([Buffer.from(text)]);
  const source = await openSource('-', { stdin, format: 'vcf' });
  const rows = [];
  for await (const r of source.records) rows.push(r);
  return rows;
}

describe('vCard source', () => {
  it('reads 4.0: PREF=1 wins over order, tel: URIs, urn:uuid UIDs, escapes', async () => {
    const { source, rows } = await read(
      [
        'BEGIN:VCARD',
        'VERSION:4.0',
        'FN:Doe\\, Jane',
        'EMAIL;TYPE=work:jane.work@example.com',
        'EMAIL;PREF=1:jane@example.com',
        'TEL;VALUE=uri;TYPE="voice,home":tel:+44-20-7946-0000',
        'TEL;VALUE=uri;PREF=2;TYPE="cell":tel:+44-7700-900123;ext=12',
        'UID:urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6',
        'END:VCARD',
        '',
      ].join('\n'),
    );
    expect(source.header).toEqual([
      'external_id',
      'name',
      'email',
      'phonenumber',
      'country',
      'company',
      'birthday',
      'note',
      'title',
      'other_phonenumber',
    ]);
    expect(rows).toEqual([
      {
        line: 1,
        raw: [
          'urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6',
          'Doe, Jane',
          'jane@example.com',
          '+44-7700-900123',
          ...Array(5).fill(undefined),
          // The card's other number, tried where the first cannot be read.
          '+44-20-7946-0000',
        ],
        error: undefined,
      },
    ]);
  });

  it('uses N when there is no FN, the first email and phone without preference, and rejects a card with no key', async () => {
    const { rows, notes } = await read(
      [
        'BEGIN:VCARD',
        'VERSION:3.0',
        'N:Turing;Alan;Mathison;Dr.;',
        'TEL;TYPE=WORK:+44 1',
        'TEL;TYPE=HOME:+44 2',
        'EMAIL:first@example.com',
        'EMAIL:second@example.com',
        'END:VCARD',
        'BEGIN:VCARD',
        'VERSION:3.0',
        'FN:Nobody',
        'END:VCARD',
        'BEGIN:VCARD',
        'VERSION:2.1',
        'FN:Mum',
        'TEL;CELL:+1 (415) 555-0101',
        'END:VCARD',
      ].join('\r\n'),
    );
    expect(notes).toEqual([
      'Cards without a UID are keyed by their email: external_id = EMAIL (the preferred one), in lower case.',
      "Cards with neither a UID nor an EMAIL (a phone's address book) are keyed by their number: " +
        'external_id = TEL (the one imported) in E.164 (+12065550116); a card whose number cannot be placed in a country is rejected.',
      'Not imported from the cards, as no field holds them: other EMAILs than the one imported (1 card), other TELs than the one imported (1 card)',
    ]);
    expect(rows[0]).toEqual({
      line: 1,
      raw: [
        'first@example.com',
        'Dr. Alan Mathison Turing',
        'first@example.com',
        '+44 1',
        ...Array(5).fill(undefined),
        '+44 2',
      ],
      error: undefined,
    });
    expect(rows[1]).toMatchObject({
      line: 9,
      error: 'The card has no UID, EMAIL or TEL: nothing to key the contact by',
    });
    expect(rows[2]?.raw?.slice(0, 4)).toEqual(['+14155550101', 'Mum', undefined, '+1 (415) 555-0101']);
    // A card keyed by its number tries no other: its key is the one number.
    expect(rows[2]?.raw?.[9]).toBeUndefined();
    expect(rows[2]?.error).toBeUndefined();
  });

  it("reads FN written family name first (an iPhone's `Smith, John`) in the order N gives", async () => {
    const card = (fn: string, n: string) =>
      ['BEGIN:VCARD', 'VERSION:3.0', `N:${n}`, `FN:${fn}`, 'EMAIL:a@example.com', 'END:VCARD'].join('\r\n');
    const names = async (...cards: string[]) => (await read(cards.join('\r\n'))).rows.map((r) => r.raw?.[1]);
    expect(
      await names(
        card('Smith\\, John', 'Smith;John;;;'),
        card('Lovelace\\, Ada', 'Lovelace;Ada;;Countess;'),
        // A comma of its own (a company, a title) with N saying otherwise stays as written.
        card('Walker\\, Sons & Co', 'Walker;Tom;;;'),
        card('Grace Hopper', 'Hopper;Grace;;;'),
        // More or other than N's parts: as written.
        card('Smith\\, John and Mary', 'Smith;John;;;'),
        card('Smith\\, Johnny', 'Smith;John;;;'),
        card('Turing\\, Alan Mathison', 'Turing;Alan;Mathison;;'),
      ),
    ).toEqual([
      'John Smith',
      'Countess Ada Lovelace',
      'Walker, Sons & Co',
      'Grace Hopper',
      'Smith, John and Mary',
      'Smith, Johnny',
      'Alan Mathison Turing',
    ]);
  });

  it('reads BDAY, NOTE and TITLE for attributes of those names, and counts what no field reads', async () => {
    const { rows, notes } = await read(
      [
        'BEGIN:VCARD',
        'VERSION:3.0',
        'UID:b1',
        'FN:Ann Lee',
        'BDAY:19850412',
        'NOTE:Met at PyCon\\, 2024',
        'TITLE:CTO',
        'ADR;TYPE=home:;;1 High St;London;;EC1A 1AA;United Kingdom',
        'URL:https://example.com',
        'PHOTO;ENCODING=b;TYPE=JPEG:AAAA',
        // Android's export of a nickname.
        'X-ANDROID-CUSTOM:vnd.android.cursor.item/nickname;Rav;1;;;;;;;;;;;;;',
        'END:VCARD',
        'BEGIN:VCARD',
        'VERSION:4.0',
        'UID:b2',
        'FN:Bo Ray',
        'BDAY:--0412',
        'ADR:;;;;;;Germany',
        'END:VCARD',
        'BEGIN:VCARD',
        'VERSION:3.0',
        'UID:b3',
        'BDAY;X-APPLE-OMIT-YEAR=1604;VALUE=date:1604-04-12',
        'END:VCARD',
      ].join('\r\n'),
    );
    // A birthday without its year, as 4.0 writes it or as Apple does, is no date of any year.
    expect(rows.map((r) => r.raw?.slice(6, 9))).toEqual([
      ['1985-04-12', 'Met at PyCon, 2024', 'CTO'],
      ['--0412', undefined, undefined],
      ['--0412', undefined, undefined],
    ]);
    expect(notes).toEqual([
      'Cards hold BDAY (the birthday): it fills the custom attribute birthday where the agent defines one',
      'Cards hold NOTE (the notes): it fills the custom attribute note where the agent defines one',
      'Cards hold TITLE (the job title): it fills the custom attribute title where the agent defines one',
      "Not imported from the cards, as no field holds them: ADR's street, city and postal code (1 card; its country places the phone), URL (1 card), PHOTO (1 card), Android's X-ANDROID-CUSTOM (a nickname, relation or event) (1 card)",
    ]);
  });

  it("takes an iPhone's number as the mobile one", async () => {
    const { rows } = await read(
      'BEGIN:VCARD\nVERSION:3.0\nUID:i\nTEL;type=HOME;type=VOICE:+44 1\nTEL;type=IPHONE:+44 2\nEND:VCARD\n',
    );
    expect(rows[0]?.raw?.[3]).toBe('+44 2');
  });

  it("takes Apple's X-ABADR country code where the address names no country", async () => {
    const card = (adrCountry: string) =>
      'BEGIN:VCARD\nVERSION:3.0\nUID:i\nitem2.TEL;type=pref:06 12 34 56 78\n' +
      `item3.ADR;type=HOME:;;1 rue de Rivoli;Paris;;75001;${adrCountry}\nitem3.X-ABADR:fr\nEND:VCARD\n`;
    expect((await read(card(''))).rows[0]?.raw?.[4]).toBe('fr');
    // The address's own country, where written, comes first.
    expect((await read(card('France'))).rows[0]?.raw?.[4]).toBe('France');
  });

  it('skips a photo of any size without holding it, and keeps reading after it', async () => {
    const base64 = 'A'.repeat(76);
    const photo = Array.from({ length: 40_000 }, () => ` ${base64}`).join('\r\n');
    const text = `BEGIN:VCARD\r\nVERSION:3.0\r\nUID:p1\r\nPHOTO;ENCODING=b;TYPE=JPEG:${base64}\r\n${photo}\r\nFN:After Photo\r\nEND:VCARD\r\n`;
    const { rows } = await read(text);
    expect(rows[0]?.raw).toEqual(['p1', 'After Photo', ...Array(8).fill(undefined)]);
    // One line of 4 MB (a 4.0 data: URI, unfolded) is dropped as it streams.
    const long = `BEGIN:VCARD\nVERSION:4.0\nUID:p2\nPHOTO:data:image/jpeg;base64,${'B'.repeat(4 * 1024 * 1024)}\nFN:Long\nEND:VCARD\n`;
    expect((await read(long)).rows[0]?.raw).toEqual(['p2', 'Long', ...Array(8).fill(undefined)]);
  });

  it("reads ORG's first component as company, escapes and quoted-printable undone", async () => {
    const { rows } = await read(
      [
        'BEGIN:VCARD',
        'VERSION:3.0',
        'UID:o1',
        'ORG:Lee\\, Park & Co.;Sales;',
        'ORG:Second Org',
        'END:VCARD',
        'BEGIN:VCARD',
        'VERSION:3.0',
        'UID:o2',
        'ORG:Smith\\; Sons Ltd',
        'END:VCARD',
        'BEGIN:VCARD',
        'VERSION:2.1',
        'UID:o3',
        'ORG;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:B=C3=A4ckerei M=C3=BCller;Filiale Mitte',
        'END:VCARD',
        'BEGIN:VCARD',
        'VERSION:3.0',
        'UID:o4',
        'ORG:;Only a unit',
        'END:VCARD',
        '',
      ].join('\r\n'),
    );
    expect(rows.map((r) => r.raw?.[5])).toEqual([
      'Lee, Park & Co.',
      'Smith; Sons Ltd',
      'Bäckerei Müller',
      undefined,
    ]);
  });

  it("titles each record with the card's name, for messages that name the card", async () => {
    const cards = await records(
      'BEGIN:VCARD\nVERSION:3.0\nUID:a\nFN:Ann Lee\nEND:VCARD\n' +
        'BEGIN:VCARD\nVERSION:3.0\nUID:b\nN:Lee;Bo;;;\nEND:VCARD\n' +
        'BEGIN:VCARD\nVERSION:3.0\nUID:c\nEND:VCARD\n',
    );
    expect(cards.map((r) => r.title)).toEqual(['Ann Lee', 'Bo Lee', undefined]);
  });

  it('names the file and line of what it cannot read', async () => {
    await expect(read('BEGIN:VCARD\nVERSION:3.0\nFN:x\nBEGIN:VCARD\n')).rejects.toThrow(
      'stdin: line 4: BEGIN:VCARD inside the card that begins on line 1',
    );
    // Not UTF-8 and no CHARSET: read as Windows-1252, as every text file the importer detects so.
    const guessed = await read(
      Buffer.from('BEGIN:VCARD\nVERSION:2.1\nUID:g\nFN:J\xfcrgen\nEND:VCARD\n', 'latin1'),
    );
    expect(guessed.rows[0]?.raw?.[1]).toBe('Jürgen');
    const latin = await read(
      Buffer.from('BEGIN:VCARD\nVERSION:2.1\nUID:u\nFN:J\xfcrgen\nEND:VCARD\n', 'latin1'),
      {
        encoding: 'windows-1252',
      },
    );
    expect(latin.rows[0]?.raw?.[1]).toBe('Jürgen');
    await expect(read('BEGIN:VCARD\nVERSION:3.0\nFN x\nEND:VCARD\n')).resolves.toBeTruthy();
    await expect(read('FN:x\n')).rejects.toThrow('stdin: line 1: expected BEGIN:VCARD, found FN');
    await expect(read('X-NOTE:x\n')).rejects.toThrow('stdin: the file holds no vCard (no BEGIN:VCARD line)');
  });
});
