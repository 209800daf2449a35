// delete --from's file reading: keyed as its import keyed it (a results file's updated contacts
// left apart), or one id a line.
import { copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AttributeDefinition } from '../../src/api/attribute.js';
import { ImportError } from '../../src/importer/errors.js';
import { readTeardownIds } from '../../src/importer/teardown-ids.js';
import { tempDir } from '../helpers/mock.js';

async function fileWith(name: string, text: string): Promise<string> {
  const path = join(await tempDir('teardown-'), name);
  await writeFile(path, text);
  return path;
}

const textAttribute = (name: string): AttributeDefinition => ({
  name,
  type: 'text',
  label: name,
  description: null,
  archived: false,
});

const idsOf = (entries: { id: string }[]) => entries.map((e) => e.id);
describe('readTeardownIds: a results file', () => {
  // n1 is a repeated key: its first row created it, its second updated it; pre existed before.
  const csv =
    'line,external_id,id,action\n2,n1,ct_1,created\n3,pre,ct_2,updated\n4,n2,ct_3,created\n5,n1,ct_1,updated\n';

  it('names the contacts the import created; those it only updated are left, apart', async () => {
    const read = await readTeardownIds(await fileWith('r.csv', csv));
    expect(idsOf(read.ids)).toEqual(['n1', 'n2']);
    expect(read.updatedLeft).toEqual([{ line: 3, id: 'pre' }]);
  });

  it('with includeUpdated names them all, in file order', async () => {
    const read = await readTeardownIds(await fileWith('r.csv', csv), { includeUpdated: true });
    expect(idsOf(read.ids)).toEqual(['n1', 'pre', 'n2']);
    expect(read.updatedLeft).toEqual([]);
  });

  it('reads NDJSON results alike, and a key updated before it was created counts as created', async () => {
    const records = [
      { line: 2, external_id: 'pre', id: 'ct_2', action: 'updated' },
      { line: 3, external_id: 'gone-and-back', id: 'ct_4', action: 'updated' },
      { line: 4, external_id: 'gone-and-back', id: 'ct_5', action: 'created' },
    ];
    const path = await fileWith('r.ndjson', records.map((r) => `${JSON.stringify(r)}\n`).join(''));
    const read = await readTeardownIds(path);
    expect(idsOf(read.ids)).toEqual(['gone-and-back']);
    expect(idsOf(read.updatedLeft)).toEqual(['pre']);
  });

  it('refuses an action it does not know, naming the line, rather than guess', async () => {
    const path = await fileWith('r.csv', 'line,external_id,id,action\n2,a,ct_1,created\n3,b,ct_2,deleted\n');
    const read = readTeardownIds(path);
    await expect(read).rejects.toBeInstanceOf(ImportError);
    await expect(read).rejects.toThrow(/r\.csv, line 3: action "deleted" is neither created nor updated/);
  });

  it('an action column is read as such even when the agent has an attribute of that name', async () => {
    const read = await readTeardownIds(await fileWith('r.csv', csv), {
      definitions: async () => [textAttribute('action')],
    });
    expect(idsOf(read.updatedLeft)).toEqual(['pre']);
  });
});

describe('readTeardownIds: an import file keys its rows as the import did', () => {
  it('without an id column, by the email in lower case as the importer reads it', async () => {
    const path = await fileWith(
      'e.csv',
      'Name,Email\nAnn,Ann@Example.COM\nBob, bob@example.com \nCy,Cy Z <CY@x.org>\nDee,not an email ::: Dee@Y.org\nNo mail,\n',
    );
    const read = await readTeardownIds(path);
    expect(idsOf(read.ids)).toEqual(['ann@example.com', 'bob@example.com', 'cy@x.org', 'dee@y.org']);
  });

  it('an email column known by its values alone, and from stdin', async () => {
    const text = 'Contact,Who\nAnn@Example.com,Ann\nbob@example.com,Bob\n';
    expect(idsOf((await readTeardownIds(await fileWith('v.csv', text))).ids)).toEqual([
      'ann@example.com',
      'bob@example.com',
    ]);
    const { Readable } = await import('node:stream');
    const fromStdin = await readTeardownIds('-', { stdin: Readable.from([text]) });
    expect(idsOf(fromStdin.ids)).toEqual(['ann@example.com', 'bob@example.com']);
  });

  it("maps a table with the agent's attributes, asked for only when the file is a table", async () => {
    const path = await fileWith('a.csv', 'email,attr.tier\nAnn@Example.com,gold\n');
    await expect(readTeardownIds(path)).rejects.toThrow(/custom attribute "tier" is not defined/);
    const read = await readTeardownIds(path, {
      definitions: async () => [textAttribute('tier')],
    });
    expect(idsOf(read.ids)).toEqual(['ann@example.com']);
    let asked = 0;
    const ndjson = await fileWith('p.ndjson', '{"external_id":"p1"}\n');
    await readTeardownIds(ndjson, {
      definitions: async () => {
        asked++;
        return [];
      },
    });
    expect(asked).toBe(0);
  });

  it("a JSON export the importer knows (Zendesk's users) by its own key, not the record's external_id", async () => {
    const path = join(await tempDir('teardown-'), 'zendesk-users.json');
    await copyFile(new URL('../fixtures/exports/zendesk-users.json', import.meta.url), path);
    const read = await readTeardownIds(path);
    expect(idsOf(read.ids)).toEqual([
      '381626101',
      '381626102',
      '381626103',
      '381626104',
      '381626105',
      '381626106',
    ]);
  });
});
