// vCard files as Apple Contacts and Outlook write them, imported with no flags but the agent:
// every card lands with exact fields. Real CLI, mock on port 0.
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/cli/errors.js';
import type { MockServer } from '../../src/mock/server.js';
import { envFor, runBin, useTempHome } from '../helpers/cli.js';
import { startTestMock } from '../helpers/mock.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/vcard/', import.meta.url));
const AGENT = 'vc';
const home = useTempHome();

const fields = (mock: MockServer) =>
  Object.fromEntries(
    mock.store
      .contacts(AGENT)
      .map((c) => [c.external_id, { name: c.name, email: c.email, phonenumber: c.phonenumber }]),
  );

async function importFixture(mock: MockServer, name: string, as = name) {
  const file = join(home.dir, as);
  await copyFile(join(FIXTURES, name), file);
  return runBin(['import', file, '--agent', AGENT, '-o', 'json'], { env: envFor(home, mock), cwd: home.dir });
}

describe('importing vCard files', () => {
  it('Apple Contacts 3.0: UID, FN (folded) or N, the preferred email, the preferred or mobile phone', async () => {
    const mock = await startTestMock();
    const r = await importFixture(mock, 'apple-3.0.vcf', 'All Contacts.vcf');
    expect(r.code, r.stderr).toBe(ExitCode.OK);
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: 3, created: 3, rejected: 0 });
    expect(fields(mock)).toEqual({
      '5f124cfb15813f50': { name: 'Ada Lovelace', email: 'ada@example.com', phonenumber: '+442079460958' },
      'B3A1E7C2-9D4F-4A51-8C66-0F2E9A1D7B10': {
        name: 'Grace Brewster Murray Hopper',
        email: 'grace@example.com',
        phonenumber: '+447911123456',
      },
      'C0FFEE00-1234-4ABC-9DEF-00000000000A': {
        name: 'José Núñez',
        email: 'jose@example.es',
        phonenumber: '+34912345678',
      },
    });
    expect(r.stderr).not.toContain('keyed by their email');
  });

  it('Outlook 2.1: quoted-printable in Windows-1252, photos skipped, keyed by email (announced)', async () => {
    const mock = await startTestMock();
    const r = await importFixture(mock, 'outlook-2.1.vcf');
    expect(r.code, r.stderr).toBe(ExitCode.OK);
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: 2, created: 2, rejected: 0 });
    expect(r.stderr).toContain('Cards without a UID are keyed by their email');
    expect(fields(mock)).toEqual({
      'juergen.mueller@example.de': {
        name: 'Jürgen Müller',
        email: 'juergen.mueller@example.de',
        phonenumber: '+491701234567',
      },
      'rene.dupont@example.fr': {
        name: 'René Dupont',
        email: 'rene.dupont@example.fr',
        phonenumber: '+33142685300',
      },
    });
  });

  it("a Japanese phone's 2.1 in Shift_JIS: the family name first, readings left out, the address's country", async () => {
    const mock = await startTestMock();
    const r = await importFixture(mock, 'japanese-phone-2.1.vcf');
    expect(r.code, r.stderr).toBe(ExitCode.OK);
    expect(r.stderr).toMatch(/is not UTF-8: reading it as Shift_JIS/);
    expect(fields(mock)).toEqual({
      'taro.yamada@example.jp': {
        name: '山田 太郎',
        email: 'taro.yamada@example.jp',
        phonenumber: '+819012345678',
      },
      'hanako.sato@example.jp': {
        name: '佐藤 花子',
        email: 'hanako.sato@example.jp',
        phonenumber: '+818023456789',
      },
    });
  });

  it("tries a card's next number where the one to import cannot be read, not of a card keyed by its number", async () => {
    const mock = await startTestMock();
    const file = join(home.dir, 'ian.vcf');
    await writeFile(
      file,
      [
        'BEGIN:VCARD\r\nVERSION:3.0\r\nUID:ian-1\r\nFN:Ian Fletcher\r\nTEL;type=CELL;type=pref:555-01',
        'TEL;type=HOME:+44 20 7946 0321\r\nEND:VCARD',
        'BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Jo Fletcher\r\nTEL;type=CELL;type=pref:+44 7700 90',
        'TEL;type=HOME:+44 20 7946 0322\r\nEND:VCARD\r\n',
      ].join('\r\n'),
    );
    const r = await runBin(['import', file, '--agent', AGENT, '-o', 'json'], {
      env: envFor(home, mock),
      cwd: home.dir,
    });
    expect(r.code, r.stderr).toBe(ExitCode.PARTIAL);
    expect(r.stderr).toMatch(/phonenumber: 555-01 not used \(.*\); \+44 20 7946 0321 used instead/);
    // Keyed by its number, a card is its first number's: no other becomes its key.
    expect(r.stderr).toMatch(
      /line 8: rejected: external_id: the card has no UID or EMAIL, and its number \+44 7700 90 cannot key it/,
    );
    expect(fields(mock)).toEqual({
      'ian-1': { name: 'Ian Fletcher', email: null, phonenumber: '+442079460321' },
    });
  });

  it('is known by its content, and a broken file is refused naming the file and line', async () => {
    const mock = await startTestMock();
    const r = await importFixture(mock, 'apple-3.0.vcf', 'contacts.txt');
    expect(r.code, r.stderr).toBe(ExitCode.OK);
    expect(mock.store.contacts(AGENT)).toHaveLength(3);

    const cut = join(home.dir, 'cut.vcf');
    const text = await readFile(join(FIXTURES, 'apple-3.0.vcf'), 'utf8');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(cut, text.slice(0, text.lastIndexOf('END:VCARD')));
    const broken = await runBin(['import', cut, '--agent', AGENT], {
      env: envFor(home, mock),
      cwd: home.dir,
    });
    expect(broken.code).not.toBe(ExitCode.OK);
    const beginOfLast = text.split('\r\n').lastIndexOf('BEGIN:VCARD') + 1;
    expect(broken.stderr).toContain(`cut.vcf: line ${beginOfLast}: the file ends inside this card`);
  });

  it('reads ADR countries for national numbers, notes UID-less cards, and writes a CSV fixes file that imports back', async () => {
    const mock = await startTestMock();
    const { writeFile } = await import('node:fs/promises');
    const file = join(home.dir, 'x.vcf');
    const card = (lines: string[]) => ['BEGIN:VCARD', 'VERSION:3.0', ...lines, 'END:VCARD'].join('\r\n');
    await writeFile(
      file,
      `${[
        card(['UID:v1', 'FN:Ann', 'EMAIL:a@example.com', 'TEL:+49 30 901820']),
        card([
          'UID:v2',
          'FN:Jane',
          'EMAIL:j@example.com',
          'ADR;TYPE=home:;;1 High St;London;;EC1A 1AA;United Kingdom',
          'TEL:020 7946 0958',
        ]),
        // Written in neither Germany's groups (02079 460100) nor Britain's (020 7946 0100): no country's.
        card(['FN:Bob', 'EMAIL:bob@example.com', 'TEL:02079460100']),
      ].join('\r\n')}\r\n`,
    );
    const r = await runBin(['import', file, '--agent', AGENT, '-o', 'json'], {
      env: envFor(home, mock),
      cwd: home.dir,
    });
    expect(r.code, r.stderr).toBe(ExitCode.OK);
    expect(r.stderr).toContain('Cards without a UID are keyed by their email');
    expect(r.stderr).toContain('UID -> external_id');
    expect(r.stderr).not.toContain('external_id -> external_id');
    expect(fields(mock)).toEqual({
      v1: { name: 'Ann', email: 'a@example.com', phonenumber: '+4930901820' },
      v2: { name: 'Jane', email: 'j@example.com', phonenumber: '+442079460958' },
      'bob@example.com': { name: 'Bob', email: 'bob@example.com', phonenumber: null },
    });
    const fixesPath = join(home.dir, 'x.fixes.csv');
    const fixes = (await readFile(fixesPath, 'utf8')).replace(/^\uFEFF/, '');
    const [header, row] = fixes.trim().split(/\r?\n/);
    expect(header).toBe('external_id,name,phonenumber,country,_line,_error');
    expect(row).toMatch(/^bob@example\.com,,02079460100,,\d+,/);
    await writeFile(fixesPath, fixes.replace('02079460100', '+44 20 7946 0100'));
    const back = await runBin(['import', fixesPath, '--agent', AGENT, '-o', 'json'], {
      env: envFor(home, mock),
      cwd: home.dir,
    });
    expect(back.code, back.stderr).toBe(ExitCode.OK);
    expect(fields(mock)['bob@example.com']).toEqual({
      name: 'Bob',
      email: 'bob@example.com',
      phonenumber: '+442079460100',
    });
  });

  it("iPhone 3.0: ORG fills a company attribute; a card taking another card's email is rejected naming it", async () => {
    const mock = await startTestMock();
    mock.store.defineAttribute(AGENT, { name: 'company', type: 'text' });
    const r = await importFixture(mock, 'iphone-3.0.vcf');
    expect(r.code, r.stderr).toBe(ExitCode.PARTIAL);
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: 3, created: 2, rejected: 1 });
    expect(r.stderr).toContain('ORG (the organisation) -> attr.company');
    const byKey = new Map(mock.store.contacts(AGENT).map((c) => [c.external_id, c]));
    expect(byKey.get('0D9D1F5B-9A7E-4C3B-8E2A-6F1C2B3A4D5E')).toMatchObject({
      name: 'Ann Lee',
      email: 'ann@example.com',
      phonenumber: '+14155550132',
      custom_attributes: { company: 'Lee, Park & Co.' },
    });
    expect(byKey.get('5C2E8B1A-3F4D-4E6A-9B7C-0A1B2C3D4E5F')).toMatchObject({
      name: 'Chidi Okafor',
      phonenumber: '+2348031234567',
      custom_attributes: { company: 'Smith; Sons Ltd' },
    });
    const reason =
      'email: ANN@example.com is already the email of Ann Lee (line 1; another external_id: the service refuses two contacts with one email)';
    expect(r.stderr).toContain(`line 26: rejected: ${reason}`);
    const rejects = parse(await readFile(join(home.dir, 'iphone-3.0.rejects.csv')), {
      bom: true,
      columns: true,
    });
    expect(rejects).toEqual([
      {
        external_id: '9F8E7D6C-5B4A-4321-8765-43210FEDCBA9',
        name: 'Annie Lee',
        email: 'ANN@example.com',
        // A leading + gets a ' against spreadsheet formulas; the importer takes it off again.
        phonenumber: "'+1 415 555 0199",
        country: '',
        company: '',
        birthday: '',
        note: '',
        title: '',
        other_phonenumber: '',
        _line: '26',
        _error: reason,
      },
    ]);
  });

  it('Android 2.1: TEL;CELL and quoted-printable UTF-8; ORG is not imported without a company attribute', async () => {
    const mock = await startTestMock();
    const r = await importFixture(mock, 'android-2.1.vcf');
    expect(r.code, r.stderr).toBe(ExitCode.OK);
    expect(r.stderr).toContain(
      "Cards' ORG (the organisation) is not imported: the agent has no custom attribute company to keep it in",
    );
    expect(r.stderr).not.toContain('Ignoring columns');
    expect(fields(mock)).toEqual({
      'juergen@example.de': {
        name: 'Jürgen Müller',
        email: 'juergen@example.de',
        phonenumber: '+491701234567',
      },
      'priya@example.in': { name: 'Priya Singh', email: 'priya@example.in', phonenumber: '+919820012345' },
    });
    expect(mock.store.contacts(AGENT).map((c) => c.custom_attributes)).toEqual([{}, {}]);

    // Defined, the attribute takes the organisation's name, quoted-printable UTF-8 decoded.
    mock.store.defineAttribute(AGENT, { name: 'company', type: 'text' });
    expect((await importFixture(mock, 'android-2.1.vcf')).code).toBe(ExitCode.OK);
    expect(mock.store.contacts(AGENT).map((c) => c.custom_attributes)).toEqual([
      { company: 'Bäckerei Müller' },
      {},
    ]);
  });

  it('says nothing of ORG for cards that hold none (a phone book)', async () => {
    const mock = await startTestMock();
    const file = join(home.dir, 'phone.vcf');
    await writeFile(
      file,
      'BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Mum\r\nTEL;TYPE=CELL:+44 7911 123456\r\nEND:VCARD\r\n',
    );
    const r = await runBin(['import', file, '--agent', AGENT], { env: envFor(home, mock), cwd: home.dir });
    expect(r.code, r.stderr).toBe(ExitCode.OK);
    expect(r.stderr).toContain('Reading vCards');
    expect(r.stderr).not.toContain('ORG');
  });

  it("keys a phone book's cards by their number in E.164, however each card wrote it", async () => {
    const mock = await startTestMock();
    const file = join(home.dir, 'phone.vcf');
    const card = (lines: string[]) => ['BEGIN:VCARD', 'VERSION:3.0', ...lines, 'END:VCARD'].join('\r\n');
    await writeFile(
      file,
      `${[
        card(['FN:Dana', 'TEL;TYPE=CELL:+1 206-555-0116']),
        card(['FN:Dana (work phone)', 'TEL;TYPE=CELL:206-555-0116']),
        card(['FN:Ravi', 'TEL;TYPE=CELL:(415) 555-0132']),
        card(['FN:Short', 'TEL:55501']),
        // A household's number: another person, not merged into Ravi's contact.
        card(['FN:Priya', 'TEL;TYPE=HOME:+1 415 555 0132']),
      ].join('\r\n')}\r\n`,
    );
    const r = await runBin(['import', file, '--agent', AGENT, '-o', 'json'], {
      env: envFor(home, mock),
      cwd: home.dir,
    });
    expect(r.stderr).toContain('keyed by their number: external_id = TEL (the one imported) in E.164');
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: 5, created: 2, updated: 1, rejected: 2 });
    expect(r.stderr).toContain(
      'rejected: external_id: +14155550132 is already the number of Ravi (line 11), and this card is Priya: two people sharing a number are not merged',
    );
    expect(fields(mock)).toEqual({
      '+12065550116': { name: 'Dana (work phone)', email: null, phonenumber: '+12065550116' },
      '+14155550132': { name: 'Ravi', email: null, phonenumber: '+14155550132' },
    });
    // A number no country reads keys nothing that would stay its key: rejected, saying why.
    expect(r.stderr).toMatch(
      /rejected: external_id: the card has no UID or EMAIL, and its number 55501 cannot key it: /,
    );
  });

  it('completes the new formats and flags in the shell scripts', async () => {
    const r = await runBin(['completion', 'bash'], { env: home.env, cwd: home.dir });
    expect(r.code).toBe(ExitCode.OK);
    expect(r.stdout).toContain('--sheet');
    expect(r.stdout).toMatch(/csv tsv json ndjson jsonl xlsx vcard vcf/);
    expect(r.stdout).toMatch(/table json ndjson csv xlsx/);
  });
});
