// Real exports (test/fixtures/exports, with their evidence) imported as a new user would: no
// flags but the agent, against the real mock. Every clean row must land with exactly the fields
// expected.json gives; fixes, rejects, skipped lines and footers as it says.
import { copyFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/mock/server.js';
import { runInProcess, tempHome } from '../helpers/cli.js';
import { api, startTestMock, TEST_KEY } from '../helpers/mock.js';

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

let home: Awaited<ReturnType<typeof tempHome>>;
let mock: MockServer;
beforeEach(async () => {
  home = await tempHome();
  mock = await startTestMock();
});
afterEach(async () => {
  await mock.close();
  await home.cleanup();
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
      const r = await runInProcess(['import', input, '--agent', AGENT, '-o', 'json'], {
        env: { ...home.env, CONTACTS_API_KEY: TEST_KEY, CONTACTS_BASE_URL: mock.url },
        cwd: home.dir,
      });
      const summary = JSON.parse(r.stdout);

      // The first line names the export (a key from the email says so too).
      const first = r.stderr.split('\n')[0]!;
      expect(first).toMatch(/^Recognised the /);
      expect(first.toLowerCase()).toContain(want.system.split('-')[0]);
      if (want.key.from === 'email')
        expect(r.stderr).toContain(`no id column: external_id = ${want.key.column}`);

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

      if (want.fixes.length > 0) {
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
