// Exports of systems the importer names nowhere (test/fixtures/unseen, with their evidence),
// imported as a new user would: no flags but the agent. Each clean row lands under the file's own
// id (or its email, or the column a file without emails is keyed by), with its name, its email and
// a phone from whichever column holds one; lines before the header are not rows.
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/mock/server.js';
import { envFor, runInProcess, useTempHome } from '../helpers/cli.js';
import { startTestMock } from '../helpers/mock.js';

const FIXTURES = new URL('../fixtures/unseen/', import.meta.url);
const AGENT = 'unseen';

interface Expected {
  system: string;
  /** The file's own id column, or null: keyed by the first email column, in lower case. */
  key: string | null;
  name: string[];
  email: string[];
  phones: string[];
  preamble_lines: number;
  rows: number;
  /** Names the file writes last name first, as a person reads them (`Rossi, Maria`: Maria Rossi). */
  names_said?: Record<string, string>;
}

const expected: Record<string, Expected> = JSON.parse(
  await readFile(new URL('expected.json', FIXTURES), 'utf8'),
);
const csvFiles = Object.entries(expected).filter(([file]) => file.endsWith('.csv'));

const home = useTempHome();
let mock: MockServer;
beforeEach(async () => {
  mock = await startTestMock();
});
afterEach(async () => {
  await mock.close();
});

const digits = (phone: string | null | undefined) => (phone ?? '').replace(/\D/g, '').replace(/^0+/, '');

describe('exports of systems named nowhere in the importer, with no flags but the agent', () => {
  it('has the fixtures it names', () => {
    expect(csvFiles.length).toBeGreaterThanOrEqual(8);
  });

  for (const [file, want] of csvFiles) {
    it(`${file} (${want.system})`, async () => {
      const input = join(home.dir, file);
      await copyFile(new URL(encodeURIComponent(file), FIXTURES), input);
      const r = await runInProcess(['import', input, '--agent', AGENT, '-o', 'json'], {
        env: envFor(home, mock),
        cwd: home.dir,
      });
      expect(r.code, r.stderr).toBe(0);
      if (want.preamble_lines > 0) expect(r.stderr).toMatch(/lines? before the header \(line \d+\)/);

      // The file as a person reads it: the header after the preamble, blank lines left out.
      const text = (await readFile(input, 'utf8')).replace(/^\uFEFF/, '');
      const body = text.split(/\r?\n/).slice(want.preamble_lines).join('\n');
      const rows: Record<string, string>[] = parse(body, {
        columns: true,
        skip_empty_lines: true,
        relax_column_count: true,
      });
      expect(rows).toHaveLength(want.rows);

      const contacts = new Map(mock.store.contacts(AGENT).map((c) => [c.external_id, c]));
      const keys = new Set<string>();
      for (const row of rows) {
        const key = want.key ? row[want.key]!.trim() : row[want.email[0]!]!.trim().toLowerCase();
        // A row with nothing but its key (LinkedIn's hidden connection) would be an empty contact.
        const given = [...want.name, ...want.email, ...want.phones].some((c) => {
          const value = row[c]?.trim();
          return value && value !== '--';
        });
        if (!given) {
          expect(contacts.get(key), `${key}`).toBeUndefined();
          expect(r.stderr).toMatch(/had no value to import but a key, or none at all/);
          continue;
        }
        keys.add(key);
        const contact = contacts.get(key);
        expect(contact, `${key}`).toBeDefined();
        const name = want.name
          .map((c) => row[c]?.trim())
          .filter(Boolean)
          .join(' ');
        if (name) expect(contact!.name).toBe(want.names_said?.[name] ?? name);
        const email = want.email.map((c) => row[c]?.trim()).find(Boolean);
        if (email) expect(contact!.email?.toLowerCase()).toBe(email.toLowerCase());
        const phone = want.phones.map((c) => row[c]?.trim()).find((p) => p && p !== '--');
        // A later row of the same key may carry another number: the last row of a key decides.
        const last = rows
          .filter((x) => (want.key ? x[want.key]!.trim() : x[want.email[0]!]!.trim().toLowerCase()) === key)
          .at(-1)!;
        const lastPhone = want.phones.map((c) => last[c]?.trim()).find((p) => p && p !== '--');
        if (phone && lastPhone === phone)
          expect(digits(contact!.phonenumber)).toMatch(new RegExp(`${digits(phone).slice(-9)}$`));
      }
      // Nothing else: no preamble line became a contact.
      expect(contacts.size).toBe(keys.size);
    });
  }
});

/** Imports a fixture as a new user would: no flags but the agent. */
async function importFixture(file: string, ...flags: string[]) {
  const input = join(home.dir, file);
  await copyFile(new URL(file, FIXTURES), input);
  return runInProcess(['import', input, '--agent', AGENT, ...flags], {
    env: envFor(home, mock),
    cwd: home.dir,
  });
}

describe('a Teams attendance report (UTF-16, tabs, sections)', () => {
  it('reads the participants section, with no flags, and not the sessions after it', async () => {
    const r = await importFixture('meeting-attendance-report.csv');
    expect(r.stderr).toContain(
      '9 lines before the header (line 10) are not contacts ("1. Summary", …): skipped',
    );
    expect(r.stderr).toContain(
      'lines 19-28 are another section ("3. In-Meeting Activities", with a header of its own at line 20), not read',
    );
    // The participants with an address each, once, without Teams' tag of an outside user; the
    // guest and the caller without one, and the address with no domain, are rejected.
    const contacts = mock.store.contacts(AGENT);
    expect(contacts.map((c) => [c.external_id, c.name]).sort()).toEqual([
      ['joerg.mueller@fabrikam.de', 'Jörg Müller'],
      ['priya.sharma@contoso.com', 'Priya Sharma'],
      ['sarah.johnson@contoso.com', 'Sarah Johnson'],
      ['zoe.martin@contoso.com', 'Zoë Martin'],
    ]);
    expect(r.stderr).toMatch(/line 14: rejected: external_id: no email/);
    expect(r.stderr).toMatch(/line 17: rejected: email: Invalid email/);
    expect(r.code).toBe(8);
  });

  it('gives a script the section not read in the summary record, quiet or not', async () => {
    const r = await importFixture('meeting-attendance-report.csv', '-q', '-o', 'json');
    expect(r.stderr).not.toContain('another section');
    expect(JSON.parse(r.stdout).sections_not_read).toEqual([
      { lines: [19, 28], title: '3. In-Meeting Activities' },
    ]);
    expect(r.code).toBe(8);
  });
});

describe('a Zoom webinar report', () => {
  it('reads the attendees, and gives the host and panelists above them as a section not read', async () => {
    const r = await importFixture('85218486288_AttendeeReport.csv', '-q', '-o', 'json');
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary.sections_not_read).toEqual([{ lines: [5, 10], title: 'Host Details' }]);
    const emails = mock.store.contacts(AGENT).map((c) => c.email);
    expect(emails).toContain('ana.reyes@example.com');
    expect(emails).not.toContain('host@example.com');
    expect(emails).not.toContain('helen.marsh@example.org');
  });
});

describe("SurveyMonkey's two header rows", () => {
  it('reads the contact fields named in the second row, and keys each respondent by email', async () => {
    const r = await importFixture('surveymonkey-responses.csv');
    expect(r.stderr).toMatch(/line 2 goes on with the header \("Email", .*\): read as part of it/);
    expect(r.stderr.split('\n')[0]).toBe(
      'Columns: no id column: external_id = Email, in lower case; Name, else First Name + Last Name -> name; Email, Email Address -> email',
    );
    // The response that left its contact fields empty has nothing to import: counted, not refused.
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/1 row had no value to import but a key, or none at all \(line 6\)/);
    const contacts = mock.store.contacts(AGENT);
    expect(contacts.map((c) => [c.external_id, c.name]).sort()).toEqual([
      ['ann.lee@example.com', 'Ann Lee'],
      ['jose.nunez@example.org', 'José Núñez'],
      ['priya.raman@example.com', 'Priya Raman'],
    ]);
  });
});

describe("SurveyMonkey's questions asked one by one", () => {
  it("skips the row labelling the answers and reads the questions' own name and email, keyed by the email", async () => {
    // The second row as SurveyMonkey writes it under single questions (EVIDENCE.md): `Response`,
    // `Open-Ended Response`; the respondent's metadata columns empty (a web-link collector).
    const input = join(home.dir, 'Sign-up survey.csv');
    await writeFile(
      input,
      [
        'Respondent ID,Collector ID,Start Date,End Date,IP Address,Email Address,First Name,Last Name,Custom Data 1,What is your full name?,What is your email address?,How did you hear about us?,Anything else?',
        ',,,,,,,,,Response,Response,Response,Open-Ended Response',
        '118052219061,446111201,11/20/2026 09:12:44 AM,11/20/2026 09:20:02 AM,203.0.113.7,,,,,Ann Lee,ann.lee@example.com,A friend,More please',
        '118052219554,446111201,11/20/2026 10:01:10 AM,11/20/2026 10:04:51 AM,198.51.100.23,,,,,José Núñez,jose.nunez@example.org,Newsletter,',
      ].join('\r\n'),
    );
    const r = await runInProcess(['import', input, '--agent', AGENT, '-o', 'json'], {
      env: envFor(home, mock),
      cwd: home.dir,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'line 2 labels the answers under the header ("Response", "Open-Ended Response"), not a contact: read as part of the header',
    );
    expect(r.stderr.split('\n')[0]).toContain('What is your full name?, else First Name + Last Name -> name');
    expect(
      mock.store
        .contacts(AGENT)
        .map((c) => [c.external_id, c.name, c.email])
        .sort(),
    ).toEqual([
      ['ann.lee@example.com', 'Ann Lee', 'ann.lee@example.com'],
      ['jose.nunez@example.org', 'José Núñez', 'jose.nunez@example.org'],
    ]);
  });
});

describe("Qualtrics' three header rows", () => {
  it('reads the header in words where only they name a column, skips the metadata row, keys by the email', async () => {
    const r = await importFixture('qualtrics-responses.csv');
    expect(r.stderr).toMatch(
      /line 2 says the header in words \("Start Date", "End Date", "Response Type", …\): read as part of it/,
    );
    expect(r.stderr).toMatch(
      /line 3 describes the columns \(\{"ImportId":"startDate",.*\), not a contact: skipped/,
    );
    expect(r.stderr).toMatch(
      /Column "ResponseId" is not used as the contacts' key: it numbers one registration, purchase or response/,
    );
    expect(r.stderr).toContain('What is your phone number? -> phonenumber');
    // The anonymous response and the survey's preview have no email to key them: rejected.
    expect(r.code).toBe(8);
    const contacts = mock.store.contacts(AGENT);
    expect(contacts.map((c) => [c.external_id, c.name, c.phonenumber]).sort()).toEqual([
      ['elise.moreau@example.com', 'Élise Moreau', '+15145550106'],
      ['hannah.ng@example.com', 'Hannah Ng', '+13035550101'],
      ['ken.ito@example.com', 'Ken Ito', '+13035550102'],
      ['lara.jones@example.com', 'Lara Jones', null],
    ]);
  });
});

describe('what an import decided, said once', () => {
  it('says what the values decided, the repeated keys, the numbers the file placed and the --map a fax needs', async () => {
    const input = join(home.dir, 'kunden.csv');
    await writeFile(
      input,
      [
        'Kundennummer,Kontakt,Vorname,Nachname,Telefon,Mobil,Fax,Land',
        'K-1,anna@example.de,Anna,Schmidt,030 1234567,,030 1234568,Deutschland',
        'K-2,ben@example.com,Ben,Lee,+1 415 555 0102,,,',
        'K-3,cy@example.com,Cy,Ray,(415) 555-0103,,,',
        'K-1,anna@example.de,Anna,Schmidt-Berg,030 1234567,,,Deutschland',
      ].join('\n'),
    );
    const r = await runInProcess(['import', input, '--agent', AGENT], {
      env: envFor(home, mock),
      cwd: home.dir,
    });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.split('\n');
    expect(lines[0]).toBe(
      'Columns: Kundennummer -> external_id; Vorname + Nachname -> name; Kontakt (by its values) -> email; ' +
        // Mobil first as a mobile, but it has no value in the file: tried after Telefon.
        'Telefon, Mobil -> phonenumber (first usable); Land -> phone country',
    );
    expect(lines).toContain(
      'Column "Fax" holds phone numbers but is not read as the contact\'s: to use it, ' +
        '--map "Telefon=phonenumber" --map "Mobil=phonenumber" --map "Fax=phonenumber"',
    );
    expect(lines).toContain(
      'warning: line 5: has the key of line 2 (external_id K-1): it updates that contact, whose name there is "Anna Schmidt" and here "Anna Schmidt-Berg"',
    );
    expect(lines).toContain('1 row had the key of an earlier row of the file: each updated that contact.');
    expect(r.stderr).toMatch(/1 national phone number placed by the file's own evidence.*\(US 1\)/);
    const contacts = new Map(mock.store.contacts(AGENT).map((c) => [c.external_id, c]));
    expect(contacts.get('K-1')).toMatchObject({ name: 'Anna Schmidt-Berg', phonenumber: '+49301234567' });
    expect(contacts.get('K-3')?.phonenumber).toBe('+14155550103');
  });
});

describe('countries written as ISO three-letter codes', () => {
  it('places each national number in the country its row names (AUS, DEU, GBR); three capitals alone make no country column', async () => {
    const input = join(home.dir, 'members.csv');
    await writeFile(
      input,
      [
        'Member No,Email,Name,Mobile,Country',
        'M1,kim@example.com,Kim Lee,0412 345 678,AUS',
        'M2,jonas@example.com,Jonas Weber,0151 12345678,DEU',
        'M3,amy@example.com,Amy Shaw,07911 123456,GBR',
      ].join('\n'),
    );
    const r = await runInProcess(['import', input, '--agent', AGENT], {
      env: envFor(home, mock),
      cwd: home.dir,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.split('\n')[0]).toContain('Country -> phone country');
    const phones = new Map(mock.store.contacts(AGENT).map((c) => [c.external_id, c.phonenumber]));
    expect([phones.get('M1'), phones.get('M2'), phones.get('M3')]).toEqual([
      '+61412345678',
      '+4915112345678',
      '+447911123456',
    ]);
    // Under a header that says nothing of countries, three capitals are nicknames, not Benin's code.
    const nicknames = join(home.dir, 'nicknames.csv');
    await writeFile(
      nicknames,
      [
        'id,email,Nick,phone',
        '1,a@example.com,BEN,+44 20 7946 0018',
        '2,b@example.com,KEN,+44 161 496 0000',
      ].join('\n'),
    );
    const n = await runInProcess(['import', nicknames, '--agent', AGENT, '--dry-run'], {
      env: envFor(home, mock),
      cwd: home.dir,
    });
    expect(n.code, n.stderr).toBe(0);
    expect(n.stderr).not.toContain('phone country');
  });
});

describe("another system's JSON records", () => {
  it('reads them as a table: nested fields by their path, mapped by their words and values', async () => {
    const input = join(home.dir, 'people.ndjson');
    await writeFile(
      input,
      [
        {
          uuid: '8f0c',
          name: { first: 'Grace', last: 'Hopper' },
          contact: { email: 'grace@example.com', mobile: '+1 212 555 0100' },
        },
        {
          uuid: '9a1d',
          name: { first: 'Edsger', last: 'Dijkstra' },
          contact: { email: 'ed@example.com', mobile: '020 555 0101' },
          country: 'NLD',
        },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n'),
    );
    const r = await runInProcess(['import', input, '--agent', AGENT], {
      env: envFor(home, mock),
      cwd: home.dir,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.split('\n')[0]).toBe(
      'Columns: uuid -> external_id; name.first + name.last -> name; contact.email -> email; contact.mobile -> phonenumber; country -> phone country',
    );
    const landed = mock.store.contacts(AGENT).filter((c) => ['8f0c', '9a1d'].includes(c.external_id));
    expect(landed.map((c) => [c.external_id, c.name, c.email, c.phonenumber]).sort()).toEqual([
      ['8f0c', 'Grace Hopper', 'grace@example.com', '+12125550100'],
      ['9a1d', 'Edsger Dijkstra', 'ed@example.com', '+31205550101'],
    ]);
  });
});
