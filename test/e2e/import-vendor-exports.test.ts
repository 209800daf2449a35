// Real exports (test/fixtures/exports, with their evidence) imported as a new user would: no
// flags but the agent, against the real mock. Every clean row must land with exactly the fields
// expected.json gives; fixes, rejects, skipped lines and footers as it says.
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/mock/server.js';
import { envFor, runInProcess, useTempHome } from '../helpers/cli.js';
import { api, startTestMock } from '../helpers/mock.js';

const FIXTURES = new URL('../fixtures/exports/', import.meta.url);
const AGENT = 'exports';

interface Landed {
  line: number;
  external_id: string;
  name: string | null;
  email: string | null;
  phonenumber: string | null;
  typed?: Record<string, string | boolean>;
}
interface Expected {
  system: string;
  key: { from: 'column' | 'email'; column: string };
  date_columns: string[];
  boolean_columns: string[];
  footer_lines: number;
  multi_value_cells: number;
  land: Landed[];
  fixes: { line: number; external_id: string; column: string; value: string }[];
  reject: { line: number; reason: string }[];
  skip: { line: number }[];
}

const expected: Record<string, Expected> = JSON.parse(
  await readFile(new URL('expected.json', FIXTURES), 'utf8'),
).fixtures;

/** The attribute a vendor column fills when the agent defines one of that name. */
const attributeName = (header: string) =>
  header
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');

/** A vendor date as the contract stores it: a date as is, a date-time without a zone as UTC. */
function stored(value: string | boolean): string | boolean {
  if (typeof value === 'boolean' || !value.includes('T')) return value;
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(value) ? value : `${value}Z`;
  return new Date(zoned).toISOString();
}

/** A value as CSV files this tool writes hold it: a leading `+` gets a `'` against formulas. */
const neutralised = (value: string) => (/^[=+\-@]/.test(value) ? `'${value}` : value);

const home = useTempHome();
let mock: MockServer;
/** `contacts ARGV` in the test's home, against its mock. */
const run = (argv: string[]) => runInProcess(argv, { env: envFor(home, mock), cwd: home.dir });
beforeEach(async () => {
  mock = await startTestMock();
});
afterEach(async () => {
  await mock.close();
});

describe('real exports import with no flags but the agent', () => {
  for (const [file, want] of Object.entries(expected)) {
    it(`${file} (${want.system})`, async () => {
      const client = api(mock.url);
      for (const [columns, type] of [
        [want.date_columns, 'date'],
        [want.boolean_columns, 'boolean'],
      ] as const) {
        for (const column of columns) {
          const res = await client.post(`/api/v1/chatbots/${AGENT}/custom-attributes`, {
            name: attributeName(column),
            type,
          });
          expect(res.status).toBe(200);
        }
      }
      const input = join(home.dir, file);
      await copyFile(new URL(file, FIXTURES), input);
      const r = await run(['import', input, '--agent', AGENT, '-o', 'json']);
      const summary = JSON.parse(r.stdout);

      // The first line names the export (a key from the email says so too).
      const first = r.stderr.split('\n')[0]!;
      expect(first).toMatch(/^Recognised the /);
      expect(first.toLowerCase()).toContain(want.system.split('-')[0]);
      if (want.key.from === 'email') {
        expect(r.stderr).toContain(`no id column: external_id = ${want.key.column}`);
        // Said once: in the first line, not again on its own.
        expect(first).toContain(`no id column: external_id = ${want.key.column}`);
        expect(r.stderr.split('\n').filter((l) => l.startsWith('no id column:'))).toEqual([]);
      }

      const contacts = new Map(mock.store.contacts(AGENT).map((c) => [c.external_id, c]));
      for (const row of want.land) {
        const contact = contacts.get(row.external_id);
        expect(contact, `line ${row.line}: ${row.external_id}`).toBeDefined();
        expect({
          name: contact!.name,
          email: contact!.email,
          phonenumber: contact!.phonenumber,
        }).toEqual({ name: row.name, email: row.email, phonenumber: row.phonenumber });
        const typed = Object.fromEntries(
          Object.entries(row.typed ?? {}).map(([column, value]) => [attributeName(column), stored(value)]),
        );
        // At least these: some fixtures list only some of a row's typed values.
        expect(contact!.custom_attributes, `line ${row.line}`).toMatchObject(typed);
      }
      // Nothing else: no footer, no repeated header, no reject became a contact.
      expect(contacts.size).toBe(want.land.length);
      expect(summary).toMatchObject({
        rows: want.land.length + want.reject.length,
        created: want.land.length,
        rejected: want.reject.length,
        fixed: new Set(want.fixes.map((f) => f.line)).size,
        multi_value_cells: want.multi_value_cells,
      });
      expect(r.code).toBe(want.reject.length > 0 ? 8 : 0);

      if (want.fixes.length > 0 && summary.fixes_file.endsWith('.ndjson')) {
        // A JSON export's fixes are JSON records by the contract's names, values as written.
        const text = await readFile(summary.fixes_file, 'utf8');
        const fixes = text
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as Record<string, unknown>);
        expect(fixes.map((f) => [f._line, f.external_id, f.phonenumber])).toEqual(
          want.fixes.map((f) => [f.line, f.external_id, f.value]),
        );
      } else if (want.fixes.length > 0) {
        const fixes: Record<string, string>[] = parse(await readFile(summary.fixes_file, 'utf8'), {
          columns: true,
          bom: true,
        });
        expect(fixes.map((f) => [Number(f._line), f.external_id, f.phonenumber])).toEqual(
          want.fixes.map((f) => [f.line, f.external_id, neutralised(f.value)]),
        );
      } else expect(summary.fixes_file).toBeNull();
      if (want.reject.length > 0) {
        const rejects: Record<string, string>[] = parse(await readFile(summary.rejects_file, 'latin1'), {
          columns: true,
          bom: true,
        });
        expect(rejects.map((x) => Number(x._line))).toEqual(want.reject.map((x) => x.line));
      }
      for (const skipped of want.skip)
        expect(r.stderr).toContain(`line ${skipped.line} repeats the header row`);
      if (want.footer_lines > 0) expect(r.stderr).toMatch(/a footer after the last row/);
    });
  }
});

describe('template --from', () => {
  it('offers the mapping file of a recognised export, which imports the same contacts', async () => {
    const input = join(home.dir, 'outlook.csv');
    await copyFile(new URL('outlook.csv', FIXTURES), input);
    const env = envFor(home, mock);
    const t = await runInProcess(['template', '--from', input, '--agent', AGENT], { env, cwd: home.dir });
    expect(t.code, t.stderr).toBe(0);
    const map = JSON.parse(t.stdout);
    expect(t.stderr).toMatch(
      /^Recognised the Outlook contacts export: no id column: external_id = E-mail Address/,
    );
    // Phones in the order they are tried, the rest left out; the email keys the contacts by the
    // import's own rule (in lower case), as the file without the mapping does.
    expect(Object.entries(map).slice(0, 4)).toEqual([
      ['E-mail Address', 'email'],
      ['E-mail 2 Address', 'email'],
      ['E-mail 3 Address', 'email'],
      ['Primary Phone', 'phonenumber'],
    ]);
    expect(map['Business Country/Region']).toBe('country');
    expect(map['First Name']).toBe('first_name');
    expect(map.Notes).toBe('-');
    const mapFile = join(home.dir, 'outlook-map.json');
    await writeFile(mapFile, t.stdout);
    const r = await runInProcess(['import', input, '--agent', AGENT, '--map-file', mapFile, '-o', 'json'], {
      env,
      cwd: home.dir,
    });
    const want = expected['outlook.csv']!;
    expect(JSON.parse(r.stdout)).toMatchObject({ created: want.land.length, rejected: want.reject.length });
    const stored = new Map(mock.store.contacts(AGENT).map((c) => [c.external_id, c]));
    for (const row of want.land)
      expect(stored.get(row.external_id)).toMatchObject({ phonenumber: row.phonenumber });
    // Imported again without the mapping: the same contacts, updated, none added.
    const again = await runInProcess(['import', input, '--agent', AGENT, '-o', 'json'], {
      env,
      cwd: home.dir,
    });
    expect(JSON.parse(again.stdout)).toMatchObject({ created: 0, updated: want.land.length });
  });
});

describe('a JSON export (Zendesk users, one object a line)', () => {
  it("takes --map like a CSV export: the account's own external_id as the key", async () => {
    const input = join(home.dir, 'zendesk-users.json');
    await copyFile(new URL('zendesk-users.json', FIXTURES), input);
    const r = await run([
      'import',
      input,
      '--agent',
      AGENT,
      '--map',
      'external_id=external_id',
      '-o',
      'json',
    ]);
    // Only Oliver has one; the others are rejected for the missing key, their lines kept as JSON.
    expect(r.code).toBe(8);
    expect(mock.store.contacts(AGENT).map((c) => [c.external_id, c.email])).toEqual([
      ['crm-0042', 'oliver.bennett@example.org'],
    ]);
    const summary = JSON.parse(r.stdout);
    const rejected = (await readFile(summary.rejects_file, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(rejected.map((x) => [x._line, x.id])).toEqual([
      [1, 381626101],
      [3, 381626103],
      [4, 381626104],
      [5, 381626105],
      [6, 381626106],
    ]);
  });

  it('template --from offers its mapping file, which imports the same contacts', async () => {
    const input = join(home.dir, 'zendesk-users.json');
    await copyFile(new URL('zendesk-users.json', FIXTURES), input);
    const t = await run(['template', '--from', input, '--agent', AGENT]);
    expect(t.code, t.stderr).toBe(0);
    expect(t.stderr).toMatch(/^Recognised the Zendesk users export \(JSON\): id -> external_id/);
    const map = JSON.parse(t.stdout);
    expect(map).toMatchObject({ email: 'email', phone: 'phonenumber', id: 'external_id', external_id: '-' });
    await writeFile(join(home.dir, 'z-map.json'), t.stdout);
    const r = await run(['import', input, '--agent', AGENT, '--map-file', 'z-map.json', '-o', 'json']);
    const want = expected['zendesk-users.json']!;
    expect(JSON.parse(r.stdout)).toMatchObject({ created: want.land.length, rejected: 0 });
    const stored = new Map(mock.store.contacts(AGENT).map((c) => [c.external_id, c]));
    for (const row of want.land) expect(stored.get(row.external_id)).toMatchObject({ email: row.email });
  });

  it("names a custom field after the record's own key of that name by its path", async () => {
    await api(mock.url).post(`/api/v1/chatbots/${AGENT}/custom-attributes`, { name: 'tier', type: 'text' });
    const user = {
      id: 7,
      name: 'Ann Lee',
      email: 'ann@example.com',
      role: 'end-user',
      notes: 'top-level notes',
      tags: ['a', 'b'],
      user_fields: { notes: 'a custom field', tier: 'gold' },
    };
    await writeFile(join(home.dir, 'u.json'), `${JSON.stringify(user)}\n`);
    const r = await run(['import', 'u.json', '--agent', AGENT, '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.split('\n')[0]).toBe(
      'Recognised the Zendesk users export (JSON): id -> external_id; name -> name; email -> email; tier -> attr.tier',
    );
    expect(r.stderr).toContain('notes, tags, user_fields.notes');
  });
});

describe('what the import says before it starts', () => {
  it('recognises a Freshsales export without its owner column, and names the column a near miss lacks', async () => {
    await writeFile(
      join(home.dir, 'Contacts.csv'),
      'Id,First name,Last name,Emails,Work,Mobile,Owner\n7,Ann,Lee,ann@example.com;a2@example.com,+1 415 555 0132,,x\n',
    );
    const fresh = await run(['import', 'Contacts.csv', '--agent', AGENT]);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stderr).toContain('Recognised the Freshsales (Freshworks CRM) contacts export');
    expect(mock.store.contacts(AGENT).map((c) => [c.external_id, c.email, c.phonenumber])).toEqual([
      ['7', 'ann@example.com', '+14155550132'],
    ]);

    // Intercom's header without `Unsubscribed from Emails`: read by the generic names, and the
    // import says why, as `Web sessions` is Intercom's own. Generic headers alone say nothing.
    await writeFile(join(home.dir, 'users.csv'), 'User ID,Email,Web sessions\n1,bo@example.com,3\n');
    const near = await run(['import', 'users.csv', '--agent', AGENT, '--dry-run']);
    expect(near.code, near.stderr).toBe(0);
    expect(near.stderr).toContain(
      'The header looks like an Intercom users export but has no "Unsubscribed from Emails" column, so it is read by the generic column names',
    );
    for (const header of [
      'Email,First Name,Last Name',
      'ID,Name,Email,Phone',
      'Record ID,First Name,Email',
    ]) {
      await writeFile(join(home.dir, 'plain.csv'), `${header}\n`);
      const plain = await run(['import', 'plain.csv', '--agent', AGENT, '--dry-run']);
      expect(plain.stderr, header).not.toContain('looks like');
    }
    // Nor does this tool's own JSON export (id, email: Zendesk's generic keys).
    await writeFile(
      join(home.dir, 'own.json'),
      '[{"id":"ct_1","external_id":"u1","name":"Ann","email":"cy@example.com","created_at":1,"updated_at":1}]\n',
    );
    const own = await run(['import', 'own.json', '--agent', AGENT, '--dry-run']);
    expect(own.code, own.stderr).toBe(0);
    expect(own.stderr).not.toContain('looks like');
  });

  it('docs/import.md lists what each export is recognised by, as the table has it', async () => {
    const { EXPORT_PROFILES } = await import('../../src/importer/exports.js');
    const docs = await readFile(new URL('../../docs/import.md', import.meta.url), 'utf8');
    for (const profile of EXPORT_PROFILES) {
      const sets = profile.signatures.map((set) => set.map((h) => `\`${h}\``).join(' + ')).join('; or ');
      expect(docs).toContain(`| ${profile.label.replace(/ export$/, '')} | ${sets} |`);
    }
  });

  it('stops on a date column its values leave ambiguous, naming the column, an example and the flag', async () => {
    await api(mock.url).post(`/api/v1/chatbots/${AGENT}/custom-attributes`, { name: 'joined', type: 'date' });
    await writeFile(join(home.dir, 'dates.csv'), 'id,Joined\nu1,3/4/2024\nu2,5/6/2024\n');
    const r = await run(['import', 'dates.csv', '--agent', AGENT]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'dates.csv: column "Joined" has dates like 3/4/2024 that read both as M/D/YYYY and D/M/YYYY, and no date in it decides which: pass --date-order mdy (month first) or --date-order dmy (day first)',
    );
    expect(mock.store.contacts(AGENT)).toEqual([]);
    const dry = await run(['import', 'dates.csv', '--agent', AGENT, '--dry-run']);
    expect(dry.code).toBe(2);
    expect(dry.stderr).toContain('rows checked before the dry run stopped; nothing was written.');
    expect(dry.stderr).not.toContain('landed');
    const dmy = await run(['import', 'dates.csv', '--agent', AGENT, '--date-order', 'dmy']);
    expect(dmy.code, dmy.stderr).toBe(0);
    expect(mock.store.contacts(AGENT).map((c) => c.custom_attributes.joined)).toEqual([
      '2024-04-03',
      '2024-06-05',
    ]);
  });

  it('decides a date column by a later value that reads one way only', async () => {
    await api(mock.url).post(`/api/v1/chatbots/${AGENT}/custom-attributes`, { name: 'joined', type: 'date' });
    await writeFile(join(home.dir, 'dates.csv'), 'id,Joined\nu1,3/4/2024\nu2,12/25/2024\n');
    const r = await run(['import', 'dates.csv', '--agent', AGENT]);
    expect(r.code, r.stderr).toBe(0);
    expect(mock.store.contacts(AGENT).map((c) => c.custom_attributes.joined)).toEqual([
      '2024-03-04',
      '2024-12-25',
    ]);
  });

  it('keys a file without an id column by the email in lower case: one contact for Ann@ and ann@', async () => {
    await writeFile(
      join(home.dir, 'people.csv'),
      'Email,First Name,Last Name\nMaria@Example.com,Maria,Ng\nbob@example.com,Bob,Ray\nmaria@example.com,Maria,Ng-Lee\n',
    );
    const r = await run(['import', 'people.csv', '--agent', AGENT, '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('no id column: external_id = Email, in lower case');
    expect(JSON.parse(r.stdout)).toMatchObject({ rows: 3, rejected: 0 });
    expect(mock.store.contacts(AGENT).map((c) => [c.external_id, c.email, c.name])).toEqual([
      ['maria@example.com', 'maria@example.com', 'Maria Ng-Lee'],
      ['bob@example.com', 'bob@example.com', 'Bob Ray'],
    ]);
  });

  it('says when --resume finds nothing to resume, before sending every row', async () => {
    await writeFile(join(home.dir, 'done.csv'), 'id,name\nu1,Ann\n');
    const r = await run(['import', 'done.csv', '--agent', AGENT, '--resume']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /--resume: no unfinished import of \S*done\.csv to resume \(no \S*done\.csv\.import-checkpoint\.json\): importing every row/,
    );
    expect(mock.store.contacts(AGENT)).toHaveLength(1);
  });

  it('says that empty cells leave fields alone, and summarises rejects by reason', async () => {
    await writeFile(
      join(home.dir, 'r.csv'),
      `id,email\n${Array.from({ length: 8 }, (_, i) => `u${i},bad${i}`).join('\n')}\n`,
    );
    const r = await run(['import', 'r.csv', '--agent', AGENT]);
    expect(r.code).toBe(8);
    expect(r.stderr).toContain('Empty cells, quoted or not, leave the field as it is');
    // The first five in full, then the summary: one line per reason, with its first lines.
    expect(r.stderr.match(/: rejected: /g)).toHaveLength(5);
    expect(r.stderr).toContain(
      'Rejected, by reason:\n       8  email: Invalid email (lines 2, 3, 4, 5, 6, …)',
    );
  });
});
