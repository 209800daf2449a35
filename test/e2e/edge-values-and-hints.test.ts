// Issue 21 (trust), the CLI's side: numbers never changed silently on the way in.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/cli/errors.js';
import { runInProcess, useTempHome } from '../helpers/cli.js';
import { startTestMock, TEST_KEY } from '../helpers/mock.js';

const home = useTempHome();

const cli = (argv: string[], options: { env?: NodeJS.ProcessEnv; stdin?: string } = {}) =>
  runInProcess(argv, { env: { ...home.env, ...options.env }, cwd: home.dir, stdin: options.stdin });

const stored = async (id: string) =>
  JSON.parse((await cli(['--mock', 'get', id, '-o', 'json'])).stdout).custom_attributes;

describe('a number raw JSON cannot carry', () => {
  beforeEach(async () => {
    expect((await cli(['--mock', 'attrs', 'define', 'num', '--type', 'number'])).code).toBe(0);
    expect((await cli(['--mock', 'upsert', '-e', 'v1', '--attr', 'num:=5'])).code).toBe(0);
  });

  it('update --attr num:=1e400 is refused with the attribute, and the value stays', async () => {
    const r = await cli(['--mock', 'update', 'v1', '--attr', 'num:=1e400']);
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toMatch(/num:=1e400: 1e400 is beyond the largest number the service stores/);
    expect(await stored('v1')).toEqual({ num: 5 });
  });

  it('upsert --data with 1e400 or 1e-400 is refused, naming custom_attributes.num', async () => {
    for (const [value, reason] of [
      ['1e400', /is beyond the largest number/],
      ['1e-400', /too small for the service to store: it would become 0/],
      ['9007199254740993', /integer beyond 2\^53 - 1 \(9007199254740991\)/],
    ] as const) {
      const r = await cli([
        '--mock',
        'upsert',
        '--data',
        `{"external_id":"v1","custom_attributes":{"num":${value}}}`,
      ]);
      expect(r.code).toBe(ExitCode.USAGE);
      expect(r.stderr).toMatch(new RegExp(`--data: custom_attributes\\.num: ${value} `));
      expect(r.stderr).toMatch(reason);
    }
    expect(await stored('v1')).toEqual({ num: 5 });
  });

  it('--attr num=9007199254740993 (text) says what it would become', async () => {
    const r = await cli(['--mock', 'update', 'v1', '--attr', 'num=9007199254740993']);
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toMatch(/it would be stored as 9007199254740992/);
    expect(await stored('v1')).toEqual({ num: 5 });
  });
});

describe('what an import says of a file', () => {
  it('warns of external ids that differ only in their Unicode form (NFC and NFD)', async () => {
    const nfc = 'Jos\u00e9';
    const nfd = 'Jose\u0301';
    await writeFile(
      join(home.dir, 'ids.csv'),
      `external_id,name\n${nfc},Ana Lima\nplain,B\n${nfd},C\n${nfc},Ana Lima-Souza\n`,
    );
    const r = await cli(['--mock', 'import', 'ids.csv']);
    expect(r.code).toBe(0);
    const warnings = r.stderr.split('\n').filter((l) => l.startsWith('warning:'));
    expect(warnings).toEqual([
      `warning: line 4: external_id "${nfd}" looks like "${nfc}" (line 2) but is written with other Unicode code points (NFC and NFD forms): they are two contacts`,
      // The same id written the same way is the same contact, updated.
      `warning: line 5: has the key of line 2 (external_id ${nfc}): it updates that contact, whose name there is "Ana Lima" and here "Ana Lima-Souza"`,
    ]);
  });

  it('refuses a later row of an id that names another person; its rejects file, imported, updates the contact', async () => {
    await writeFile(
      join(home.dir, 'people.csv'),
      'external_id,name\nk7,Maria Ng\nk8,Ann Lee\nk7,Tom Walker\n',
    );
    const r = await cli(['--mock', 'import', 'people.csv']);
    expect(r.code).toBe(ExitCode.PARTIAL);
    const rejects = await readFile(join(home.dir, 'people.rejects.csv'), 'utf8');
    expect(rejects).toMatch(/k7,Tom Walker/);
    expect(rejects).toMatch(/is already the key of Maria Ng \(line 2\)/);
    const name = async () => JSON.parse((await cli(['--mock', 'get', 'k7', '-o', 'json'])).stdout).name;
    // Maria's contact is as her row made it.
    expect(await name()).toBe('Maria Ng');
    // The user judges it one record renamed after all: the rejects file alone is no conflict.
    expect((await cli(['--mock', 'import', 'people.rejects.csv'])).code).toBe(0);
    expect(await name()).toBe('Tom Walker');
  });

  it("writes a rejected row's open slash date as the file's other rows decided it: its rejects file imports alone", async () => {
    expect((await cli(['--mock', 'attrs', 'define', 'created', '--type', 'date'])).code).toBe(0);
    await writeFile(
      join(home.dir, 'keap.csv'),
      [
        'Id,Email,Created',
        'k1,ann@example.com,10/25/2024 09:09 AM',
        'k2,ann@example.com,10/02/2024 09:09 AM',
      ].join('\n'),
    );
    const r = await cli(['--mock', 'import', 'keap.csv']);
    expect(r.code, r.stderr).toBe(ExitCode.PARTIAL);
    const rejects = await readFile(join(home.dir, 'keap.rejects.csv'), 'utf8');
    // 10/25 made the column month-first: the rejected row's 10/02 is October's, written so.
    expect(rejects).toMatch(/^k2,ann@example\.com,2024-10-02T09:09:00\.000Z,3,/m);
    await writeFile(join(home.dir, 'keap.rejects.csv'), rejects.replace('k2,ann@', 'k2,bo@'));
    const back = await cli(['--mock', 'import', 'keap.rejects.csv']);
    expect(back.code, back.stderr).toBe(0);
    const k2 = JSON.parse((await cli(['--mock', 'get', 'k2', '-o', 'json'])).stdout);
    expect(k2.custom_attributes).toEqual({ created: '2024-10-02T09:09:00.000Z' });
  });

  it('hints the attribute type an ignored column asks for: a column of dates, --type date', async () => {
    await writeFile(
      join(home.dir, 'signed.csv'),
      'external_id,name,Signed Up\nu1,Ann,2024-05-31\nu2,Bob,9/20/2022\n',
    );
    const r = await cli(['--mock', 'import', 'signed.csv', '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/contacts attrs define signed_up --type date \(or text, number, boolean\)/);
  });

  it('notes date-times whose fractional seconds go past milliseconds', async () => {
    expect((await cli(['--mock', 'attrs', 'define', 'seen', '--type', 'date'])).code).toBe(0);
    await writeFile(
      join(home.dir, 'd.csv'),
      'external_id,seen\na,2024-05-31T10:00:00.123456789Z\nb,2024-05-31T10:00:00.123000Z\n',
    );
    const r = await cli(['--mock', 'import', 'd.csv']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /warning: line 2: seen: 2024-05-31T10:00:00.123456789Z is stored to the millisecond, as 2024-05-31T10:00:00.123Z/,
    );
    expect(r.stderr).not.toMatch(/line 3:/);
    // A vendor's form (a space, no zone) too, read in a time zone or not.
    await writeFile(join(home.dir, 'v.csv'), 'external_id,seen\nv,2024-05-31 10:00:00.123456\n');
    for (const [zone, stored] of [
      [[], '2024-05-31T10:00:00.123Z'],
      [['--time-zone', 'America/New_York'], '2024-05-31T14:00:00.123Z'],
    ] as const) {
      const v = await cli(['--mock', 'import', 'v.csv', ...zone]);
      expect(v.code, v.stderr).toBe(0);
      expect(v.stderr).toContain(
        `warning: line 2: seen: ${stored.slice(0, -1)}456Z is stored to the millisecond, as ${stored}`,
      );
    }
  });

  it('names the first few of 20,000 unknown columns and counts the rest', async () => {
    const header = ['external_id', ...Array.from({ length: 20_000 }, (_, i) => `extra_column_${i}`)];
    await writeFile(join(home.dir, 'wide.csv'), `${header.join(',')}\nu1${','.repeat(20_000)}\n`);
    const r = await cli(['--mock', 'import', 'wide.csv']);
    expect(r.code).toBe(0);
    const warning = r.stderr.split('\n').find((l) => l.includes('map to no field')) ?? '';
    expect(warning).toBe(
      `warning: Ignoring 20000 columns that map to no field: ${header.slice(1, 11).join(', ')} and 19990 more`,
    );
  });
});

describe('the hint for a key refused from stdin', () => {
  it('shows its own example whole: redaction must not take "bk_" for a key', async () => {
    const r = await cli(['auth', 'login', '--with-key'], { stdin: 'nope\n' });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('hint: A workspace key starts with "bk_"; copy it again from the dashboard.');
    expect(r.stderr).not.toContain('REDACTED');
  });
});

describe('a contact id with spaces around it', () => {
  it('is trimmed by get, update and delete, as upsert trims the external_id it stores', async () => {
    expect((await cli(['--mock', 'upsert', '--external-id', ' pad ', '--name', 'Pad'])).code).toBe(0);
    const got = await cli(['--mock', 'get', ' pad ', '-o', 'json']);
    expect(got.code).toBe(0);
    expect(JSON.parse(got.stdout)).toMatchObject({ external_id: 'pad', name: 'Pad' });
    expect((await cli(['--mock', 'update', '\tpad ', '--name', 'Padded'])).code).toBe(0);
    expect((await cli(['--mock', 'delete', ' pad ', '--yes'])).code).toBe(0);
    expect((await cli(['--mock', 'get', 'pad'])).code).toBe(ExitCode.NOT_FOUND);
    expect((await cli(['--mock', 'get', '  '])).stderr).toMatch(/The contact id is empty/);
  });
});

describe('an http:// base URL to another machine', () => {
  it('is refused before anything is sent, naming the flag that allows it', async () => {
    const r = await cli(['--base-url', 'http://contacts.example.test', 'list', '--agent', 'a1'], {
      env: { CONTACTS_API_KEY: 'bk_test_cleartext_1234' },
    });
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toMatch(/Refusing to send the API key unencrypted to contacts\.example\.test/);
    expect(r.stderr).toMatch(/--insecure-http/);
  });
});

describe('attribute definitions', () => {
  it('are downloaded at most once by a command, however many values need them', async () => {
    const mock = await startTestMock();
    try {
      const env = { CONTACTS_API_KEY: TEST_KEY, CONTACTS_BASE_URL: mock.url };
      for (const name of ['num', 'plan', 'seats']) {
        const type = name === 'plan' ? 'text' : 'number';
        expect((await cli(['attrs', 'define', name, '--type', type, '--agent', 'a1'], { env })).code).toBe(0);
      }
      const before = mock.requests.length;
      const r = await cli(
        ['upsert', '-e', 'u1', '--agent', 'a1', '--attr', 'num=1', '--attr', 'plan=pro', '--attr', 'seats=3'],
        { env },
      );
      expect(r.code).toBe(0);
      const downloads = mock.requests
        .slice(before)
        .filter((q) => q.method === 'GET' && q.path.endsWith('/custom-attributes'));
      expect(downloads).toHaveLength(1);
    } finally {
      await mock.close();
    }
  });
});

describe('a date-time past milliseconds in --attr', () => {
  it('is sent, stored to the millisecond, and said', async () => {
    expect((await cli(['--mock', 'attrs', 'define', 'seen', '--type', 'date'])).code).toBe(0);
    const r = await cli(['--mock', 'upsert', '-e', 'd1', '--attr', 'seen=2024-05-31T10:00:00.123456Z']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /warning: --attr seen: 2024-05-31T10:00:00.123456Z is stored to the millisecond, as 2024-05-31T10:00:00.123Z/,
    );
    expect(await stored('d1')).toEqual({ seen: '2024-05-31T10:00:00.123Z' });
  });
});

describe('a name written last name first', () => {
  it('is imported in the order said, the first one told; a suffix after the comma stays', async () => {
    const file = join(home.dir, 'directory.csv');
    await writeFile(
      file,
      'Contact ID,Name,Email\nc1,"Hopper, Grace",grace@example.com\nc2,"King, Jr.",k@example.com\n',
    );
    const r = await cli(['--mock', 'import', file, '--agent', 'a1']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'Column "Name" writes names last name first ("Hopper, Grace"): they are read in the order said ("Grace Hopper"). (--map "Name=name" keeps them as written)',
    );
    const name = async (id: string) =>
      JSON.parse((await cli(['--mock', 'get', id, '--agent', 'a1', '-o', 'json'])).stdout).name;
    expect([await name('c1'), await name('c2')]).toEqual(['Grace Hopper', 'King, Jr.']);
  });

  it('is kept as written where --map names the column, or the file is keyed by an external_id column', async () => {
    const mapped = join(home.dir, 'mapped.csv');
    await writeFile(mapped, 'Contact ID,Name,Email\nm1,"Hopper, Grace",grace@example.com\n');
    const byMap = await cli(['--mock', 'import', mapped, '--agent', 'a1', '--map', 'Name=name']);
    expect(byMap.code, byMap.stderr).toBe(0);
    expect(byMap.stderr).not.toContain('last name first');
    const keyed = join(home.dir, 'keyed.csv');
    await writeFile(keyed, 'external_id,name,email\nk1,"Turing, Alan",alan@example.com\n');
    expect((await cli(['--mock', 'import', keyed, '--agent', 'a1'])).code).toBe(0);
    const name = async (id: string) =>
      JSON.parse((await cli(['--mock', 'get', id, '--agent', 'a1', '-o', 'json'])).stdout).name;
    expect([await name('m1'), await name('k1')]).toEqual(['Hopper, Grace', 'Turing, Alan']);
  });
});
