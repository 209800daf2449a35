// `contacts import` of hostile inputs (issue 30): a workbook whose shared strings would expand to
// over a gigabyte, and a JSON array holding one record of 17 MiB, are refused with exit 2 and a
// message naming the file, where and the limit; the rows before a record too long land.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_RECORD_CHARS } from '../../src/importer/sources/record-limit.js';
import type { MockServer } from '../../src/mock/server.js';
import { envFor, runInProcess, useTempHome } from '../helpers/cli.js';
import { startTestMock } from '../helpers/mock.js';
import { inline, shared, sheetXml, stringsXml, workbookZip } from '../helpers/xlsx.js';

const AGENT = 'limits';
const home = useTempHome();
let mock: MockServer;
beforeEach(async () => {
  mock = await startTestMock();
});
afterEach(async () => {
  await mock.close();
});

const importFile = (name: string, args: string[] = []) =>
  runInProcess(['import', name, '--agent', AGENT, ...args], { env: envFor(home, mock), cwd: home.dir });

describe('import of inputs past the limits', () => {
  it('refuses a workbook whose shared strings would expand past what it reads, sending nothing', async () => {
    const bomb = workbookZip({
      sheet: sheetXml([
        [shared(0), shared(1)],
        [inline('u1'), inline('Ada')],
      ]),
      strings: stringsXml(['external_id', 'name']),
      declared: { 'xl/sharedStrings.xml': 1240 * 1024 * 1024 },
    });
    await writeFile(join(home.dir, 'strings.xlsx'), bomb);
    for (const args of [[], ['--dry-run']]) {
      const r = await importFile('strings.xlsx', args);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        "strings.xlsx: the workbook's shared strings (xl/sharedStrings.xml) would expand to 1240 MiB, " +
          'more than the 256 MiB this tool reads: save the sheet as CSV and import that',
      );
    }
    expect(mock.store.contacts(AGENT)).toEqual([]);
  });

  it('stops at a JSON record longer than 16 MiB with exit 2, after the record before it landed', async () => {
    const name = 'x'.repeat(MAX_RECORD_CHARS + 1024 * 1024);
    await writeFile(
      join(home.dir, 'big.json'),
      `[\n{"external_id":"u1","name":"Ada"},\n{"external_id":"u2","name":"${name}"}\n]\n`,
    );
    const r = await importFile('big.json');
    expect(r.code, r.stderr + r.stdout).toBe(2);
    expect(r.stderr).toContain(
      'big.json: line 3: record 2 of the array is longer than 16 MiB, far more than a contact ' +
        '(is a string or a bracket left open?)',
    );
    expect(mock.store.contacts(AGENT).map((c) => c.external_id)).toEqual(['u1']);
  });
});
