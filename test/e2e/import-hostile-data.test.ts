// Issue "nothing lost, nothing injected", data: an import never deletes or overwrites a file it
// did not write, reads text in its real encoding, reads back exactly what export wrote, and
// rejects one bad record (too big, too deep) without stopping the rest.
import { copyFile, link, lstat, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/cli/errors.js';
import { runInProcess, useTempHome } from '../helpers/cli.js';

const home = useTempHome();

const cli = (argv: string[], stdin?: string) =>
  runInProcess(['--mock', ...argv], { env: home.env, cwd: home.dir, stdin });
const path = (name: string) => join(home.dir, name);
const contacts = async () =>
  JSON.parse((await cli(['list', '--all', '-o', 'json'])).stdout) as Record<string, unknown>[];

describe('files the import did not write', () => {
  it('refuses a --rejects or --fixes path holding a file it did not write, before sending anything', async () => {
    await writeFile(path('in.csv'), 'external_id,email\nu1,bad\n');
    await writeFile(path('notes.txt'), 'my notes\n');
    for (const option of ['--rejects', '--fixes']) {
      const r = await cli(['import', 'in.csv', option, 'notes.txt']);
      expect(r.code, option).toBe(ExitCode.USAGE);
      expect(r.stderr).toContain(
        `notes.txt exists and is no ${option.slice(2)} file of this tool (its header does not end with the _line and _error columns): the import would overwrite it: move it, or pass ${option} with another path`,
      );
    }
    expect(await readFile(path('notes.txt'), 'utf8')).toBe('my notes\n');
    expect(await contacts()).toEqual([]);
  });

  it("a new run keeps an earlier run's rejects file aside, unless it wrote the same again", async () => {
    await writeFile(path('in.csv'), 'external_id,email\nu1,bad\n');
    expect((await cli(['import', 'in.csv'])).code).toBe(ExitCode.PARTIAL);
    const first = await readFile(path('in.rejects.csv'), 'utf8');
    expect(first).toMatch(/_line,_error/);
    // The same rejects again: one file, nothing kept aside, nothing said.
    const again = await cli(['import', 'in.csv']);
    expect(again.code).toBe(ExitCode.PARTIAL);
    expect(again.stderr).not.toContain('of an earlier run');
    await expect(readFile(path('in.rejects.1.csv'))).rejects.toThrow(/ENOENT/);
    // The user is mending it when a clean run comes: their file is kept, and said where.
    await writeFile(path('in.rejects.csv'), first.replace('u1,bad', 'u1,ada@example.org'));
    await writeFile(path('in.csv'), 'external_id,email\nu1,ada@example.com\n');
    const clean = await cli(['import', 'in.csv']);
    expect(clean.code).toBe(0);
    expect(clean.stderr).toContain(
      `The rejects file of an earlier run is kept as ${path('in.rejects.1.csv')} (this run wrote none): if you mended it, import that file to send what you changed`,
    );
    await expect(readFile(path('in.rejects.csv'))).rejects.toThrow(/ENOENT/);
    expect(await readFile(path('in.rejects.1.csv'), 'utf8')).toContain('u1,ada@example.org');
  });

  it("keeps a mended fixes file aside, and a linked rejects file's target, writing through the link again", async () => {
    await writeFile(path('in.csv'), 'external_id,email,phone\nu1,bad,\nu2,b@example.com,555\n');
    expect((await cli(['import', 'in.csv'])).code).toBe(ExitCode.PARTIAL);
    const fixes = await readFile(path('in.fixes.csv'), 'utf8');
    await writeFile(path('in.fixes.csv'), fixes.replace('555', '+1 415 555 0100'));
    // The rejects file through a link: its target is kept aside, the link written through again.
    await mkdir(path('keep'));
    await writeFile(path('keep/r.csv'), await readFile(path('in.rejects.csv')));
    await symlink(path('keep/r.csv'), path('link.csv'));
    await writeFile(
      path('keep/r.csv'),
      (await readFile(path('keep/r.csv'), 'utf8')).replace('u1,bad', 'u1,a@x.org'),
    );
    const again = await cli(['import', 'in.csv', '--rejects', 'link.csv']);
    expect(again.code).toBe(ExitCode.PARTIAL);
    expect(again.stderr).toContain(
      `The fixes file of an earlier run is kept as ${path('in.fixes.1.csv')} (this run wrote another)`,
    );
    expect(await readFile(path('in.fixes.1.csv'), 'utf8')).toContain('+1 415 555 0100');
    expect(again.stderr).toContain(`kept as ${path('keep/r.1.csv')}`);
    expect(await readFile(path('keep/r.1.csv'), 'utf8')).toContain('u1,a@x.org');
    expect(await readFile(path('link.csv'), 'utf8')).toContain('u1,bad');
    expect((await lstat(path('link.csv'))).isSymbolicLink()).toBe(true);
  });

  it('refuses a --rejects path that names the input through a symlinked directory or a hard link', async () => {
    const input = 'external_id,email\nu1,not-an-email\n';
    await writeFile(path('in2.csv'), input);
    await symlink('.', path('here'));
    await link(path('in2.csv'), path('alias.csv'));
    for (const alias of ['here/in2.csv', 'alias.csv']) {
      const r = await cli(['import', 'in2.csv', '--rejects', alias]);
      expect(r.code, alias).toBe(ExitCode.USAGE);
      expect(r.stderr).toMatch(new RegExp(`Cannot write --rejects ${alias}: it is the input`));
      expect(await readFile(path('in2.csv'), 'utf8')).toBe(input);
    }
    // Refused before anything was sent.
    expect(await contacts()).toEqual([]);
  });

  it('refuses a --rejects path that is a directory or has no directory, before sending', async () => {
    await writeFile(path('in.csv'), 'external_id,name\nu1,Ada\n');
    await mkdir(path('adir'));
    const dir = await cli(['import', 'in.csv', '--rejects', 'adir']);
    expect(dir.code).toBe(ExitCode.USAGE);
    expect(dir.stderr).toMatch(/Cannot write --rejects adir: it is a directory/);
    const missing = await cli(['import', 'in.csv', '--rejects', 'nowhere/r.csv']);
    expect(missing.code).toBe(ExitCode.USAGE);
    expect(missing.stderr).toMatch(/its directory .*nowhere does not exist/);
    expect(await contacts()).toEqual([]);
  });
});

describe('the checkpoint path', () => {
  it('is checked before anything is sent', async () => {
    await writeFile(path('in.csv'), 'external_id,name\nu1,Ada\n');
    await mkdir(path('in.csv.import-checkpoint.json'));
    const r = await cli(['import', 'in.csv']);
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toMatch(
      /Cannot write the resume checkpoint .*in\.csv\.import-checkpoint\.json: it is a directory/,
    );
    expect(await contacts()).toEqual([]);
  });
});

describe('encodings', () => {
  it('reads a file that is not UTF-8 in the legacy encoding it looks like, and says so', async () => {
    await writeFile(path('latin.csv'), Buffer.from('external_id,name\nu0,Ann\nu1,Jos\xe9\n', 'latin1'));
    const r = await cli(['import', 'latin.csv']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /latin\.csv is not UTF-8: reading it as Windows-1252 .*\(--encoding overrides\)/,
    );
    expect((await contacts()).map((c) => c.name)).toEqual(['Ann', 'José']);
  });

  it('switches to the legacy encoding where the first non-UTF-8 byte comes after plain ASCII', async () => {
    // Past the first 64 KiB the importer sniffs: the switch happens while reading.
    const rows = Array.from({ length: 3000 }, (_, i) => `u${i},Name ${i} ${'x'.repeat(20)}`);
    const bytes = Buffer.from(`external_id,name\n${rows.join('\n')}\nlast,Jos\xe9\n`, 'latin1');
    expect(bytes.length).toBeGreaterThan(64 * 1024);
    await writeFile(path('late.csv'), bytes);
    const r = await cli(['import', 'late.csv']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/late\.csv is not UTF-8 \(line 3002\): reading it as Windows-1252/);
    expect((await contacts()).find((c) => c.external_id === 'last')?.name).toBe('José');
  });

  it('refuses a file that mixes UTF-8 with bytes of another encoding, naming the line', async () => {
    const bytes = Buffer.concat([
      Buffer.from('external_id,name\nu0,Zoë\n', 'utf8'),
      Buffer.from('u1,Jos\xe9\n', 'latin1'),
    ]);
    await writeFile(path('mixed.csv'), bytes);
    const r = await cli(['import', 'mixed.csv']);
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toMatch(/mixed\.csv: line 3, column 7: not valid UTF-8 \(byte 0xE9\)/);
    expect(r.stderr).toMatch(/--encoding windows-1252/);
    expect(await contacts()).toEqual([]);
    // Curly quotes that pair with the next letter as a Shift_JIS kanji change nothing.
    await writeFile(
      path('mixed.csv'),
      Buffer.concat([
        Buffer.from('external_id,name\nu0,Zoë\n', 'utf8'),
        Buffer.from('u1,O\x92Brien\n', 'latin1'),
      ]),
    );
    const again = await cli(['import', 'mixed.csv']);
    expect(again.code).toBe(ExitCode.USAGE);
    expect(again.stderr).toMatch(/mixed\.csv: line 3, column 5: not valid UTF-8 \(byte 0x92\)/);
  });

  it("reads a Japanese Excel's Shift_JIS CSV by its own words, and writes its rejects so Excel reads them", async () => {
    // A Japanese shop's customers (test/fixtures/encodings/EVIDENCE.md): `姓` and `名` are the
    // last and first name, `国名` the country of the national numbers.
    await copyFile(
      new URL('../fixtures/encodings/customers.shift_jis.csv', import.meta.url),
      path('顧客.csv'),
    );
    const r = await cli(['import', '顧客.csv']);
    expect(r.code, r.stderr).toBe(ExitCode.PARTIAL);
    expect(r.stderr).toMatch(
      /顧客\.csv is not UTF-8: reading it as Shift_JIS \(the code page of Japanese Windows and phones\)/,
    );
    expect(r.stderr.split('\n')[0]).toContain(
      '名 + 姓 -> name; メールアドレス -> email; 電話番号 -> phonenumber; 国名 -> phone country',
    );
    expect((await contacts()).map((c) => [c.external_id, c.name, c.phonenumber])).toEqual([
      ['taro.yamada@example.jp', '山田 太郎', '+81312345678'],
      ['hanako.sato@example.jp', '佐藤 花子', '+819012345678'],
    ]);
    // The rejects file is UTF-8 with a BOM: Excel on Japanese Windows reads one without it as Shift_JIS.
    const rejects = await readFile(path('顧客.rejects.csv'));
    expect([...rejects.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(rejects.toString('utf8')).toMatch(/\n2024\/03\/20,男性,鈴木,一郎,.*ichiro\.suzuki@,/);
  });

  it('reads the file in the encoding --encoding names', async () => {
    await writeFile(path('latin.csv'), Buffer.from('external_id,name\nu1,Jos\xe9\n', 'latin1'));
    expect((await cli(['import', 'latin.csv', '--encoding', 'latin1'])).code).toBe(0);
    expect((await contacts())[0]).toMatchObject({ external_id: 'u1', name: 'José' });
    const bad = await cli(['import', 'latin.csv', '--encoding', 'klingon']);
    expect(bad.code).toBe(ExitCode.USAGE);
    expect(bad.stderr).toMatch(/Unknown encoding "klingon"/);
  });

  it("recognises Excel's UTF-16 export by its byte-order mark", async () => {
    const text = 'external_id\tname\r\nu1\tZoë Ñandú\r\n';
    await writeFile(
      path('excel.csv'),
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
    );
    const r = await cli(['import', 'excel.csv']);
    expect(r.code, r.stderr).toBe(0);
    expect((await contacts())[0]).toMatchObject({ external_id: 'u1', name: 'Zoë Ñandú' });
  });
});

describe('a file that is not text', () => {
  it('refuses an image given as .csv, naming what it looks like, and writes nothing', async () => {
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
      Buffer.from('IHDR'),
    ]);
    await writeFile(path('photo.csv'), png);
    const r = await cli(['import', 'photo.csv']);
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toContain(
      'photo.csv is not a text file (it looks like a PNG image): ' +
        'export the contacts as CSV, a workbook (.xlsx), vCard or JSON',
    );
    expect(r.stderr).not.toMatch(/UTF-16|Windows-1252/);
    expect(await contacts()).toEqual([]);
    expect((await readdir(home.dir)).filter((f) => f.startsWith('photo.'))).toEqual(['photo.csv']);
  });
});

describe('export -> import is exact', () => {
  const tricky = [
    ['u1', '  spaced  ', 'lead'],
    ['u2', '', ''],
    ['u3', '\tTabbed', '\rcr'],
    ['u4', '=HYPERLINK("http://evil","click")', '+SUM(A1:A2)'],
    ['u5', '-2+3', '@SUM(1)'],
    ['u6', "'=already quoted", '-5'],
  ];

  async function seed() {
    expect((await cli(['attrs', 'define', 'note', '--type', 'text'])).code).toBe(0);
    for (const [id, name, note] of tricky) {
      const data = JSON.stringify({ external_id: id, name, custom_attributes: { note } });
      expect((await cli(['upsert', '--data', data])).code).toBe(0);
    }
    return comparable(await contacts());
  }
  // The import sends rows concurrently, so creation order may differ: compare by external_id.
  const comparable = (list: Record<string, unknown>[]) =>
    list
      .map(
        (c): Record<string, unknown> => ({
          ...c,
          id: undefined,
          created_at: undefined,
          updated_at: undefined,
        }),
      )
      .sort((a, b) => String(a.external_id).localeCompare(String(b.external_id)));

  for (const ext of ['csv', 'json', 'ndjson']) {
    it(`keeps spaces, "", leading tabs and CRs, and formula-like text in ${ext}`, async () => {
      const before = await seed();
      expect((await cli(['export', '--out', `out.${ext}`])).code).toBe(0);
      for (const [id] of tricky) await cli(['delete', id!, '--yes']);
      expect(await contacts()).toEqual([]);
      const r = await cli(['import', `out.${ext}`]);
      expect(r.code, r.stderr).toBe(0);
      expect(comparable(await contacts())).toEqual(before);
    });
  }

  it('neutralises formulas in the CSV as OWASP describes (a leading apostrophe)', async () => {
    await seed();
    await cli(['export', '--out', 'out.csv']);
    const text = await readFile(path('out.csv'), 'utf8');
    expect(text).toContain(`'=HYPERLINK(`);
    expect(text).toContain(`'+SUM(A1:A2)`);
    expect(text).toContain(`'-2+3`);
    expect(text).toContain(`'@SUM(1)`);
    expect(text).toContain(`"'\tTabbed"`.replace('"', '').replace('"', ''));
    expect(text).toContain(`''=already quoted`);
    // A plain number is not a formula.
    expect(text).toMatch(/,-5\r?\n/);
    for (const line of text.split('\n').slice(1)) {
      for (const cell of line.split(',')) expect(cell).not.toMatch(/^"?[=+@\t\r]/);
    }
  });
});

describe('one bad record does not stop the rest', () => {
  const deep = () => {
    let s = '1';
    for (let i = 0; i < 5000; i++) s = `[${s}]`;
    return s;
  };

  it('rejects a record nested 5,000 levels deep (NDJSON and JSON) and lands the next one', async () => {
    await writeFile(path('deep.ndjson'), `{"external_id":"d1","name":${deep()}}\n{"external_id":"ok1"}\n`);
    const r = await cli(['import', 'deep.ndjson']);
    expect(r.code).toBe(ExitCode.PARTIAL);
    const rejects = await readFile(path('deep.rejects.ndjson'), 'utf8');
    expect(JSON.parse(rejects)).toMatchObject({
      _line: 1,
      _error: 'Nested deeper than 64 levels: not a contact',
    });
    await writeFile(path('deep.json'), `[{"external_id":"d2","name":${deep()}},\n{"external_id":"ok2"}]`);
    expect((await cli(['import', 'deep.json'])).code).toBe(ExitCode.PARTIAL);
    expect((await contacts()).map((c) => c.external_id)).toEqual(['ok1', 'ok2']);
  });

  it('refuses --data nested too deep with a usage error, not a crash', async () => {
    const r = await cli(['upsert', '--data', `{"external_id":"d","name":${deep()}}`]);
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).toMatch(/nested deeper than 64 levels/);
  });

  it('rejects a quoted CSV field over 1 MiB with its line, keeps it in the rejects file, and goes on', async () => {
    const big = 'x'.repeat(1024 * 1024 + 10);
    await writeFile(path('big.csv'), `external_id,name\nu1,"${big}"\nu2,Bob\n`);
    const r = await cli(['import', 'big.csv']);
    expect(r.code).toBe(ExitCode.PARTIAL);
    expect((await contacts()).map((c) => c.external_id)).toEqual(['u2']);
    const rejects = await readFile(path('big.rejects.csv'), 'utf8');
    // Not toContain(big): a failure would print a megabyte.
    expect(rejects.includes(big)).toBe(true);
    expect(rejects.slice(-200)).toMatch(/,2,"Row is larger than 1048576 bytes/);
  });

  it('rejects an NDJSON line over 1 MiB and keeps its text as _raw', async () => {
    const big = 'y'.repeat(1024 * 1024 + 10);
    await writeFile(path('big.ndjson'), `{"external_id":"u1","name":"${big}"}\n{"external_id":"u2"}\n`);
    expect((await cli(['import', 'big.ndjson'])).code).toBe(ExitCode.PARTIAL);
    const rejected = JSON.parse((await readFile(path('big.rejects.ndjson'), 'utf8')).trim());
    expect(rejected._raw.includes(big)).toBe(true);
    expect((await contacts()).map((c) => c.external_id)).toEqual(['u2']);
  });

  it('a CSV header named __proto__ is a column like any other', async () => {
    await writeFile(path('proto.csv'), 'external_id,__proto__\nu1,Ada\n');
    const r = await cli(['import', 'proto.csv', '--map', '__proto__=name']);
    expect(r.code, r.stderr).toBe(0);
    expect((await contacts())[0]).toMatchObject({ external_id: 'u1', name: 'Ada' });
  });
});

describe('user mistakes get clear messages', () => {
  it('an empty CSV or JSON file is a usage error without a --resume hint', async () => {
    await writeFile(path('empty.csv'), '');
    await writeFile(path('empty.json'), '');
    for (const file of ['empty.csv', 'empty.json']) {
      const r = await cli(['import', file]);
      expect(r.code, file).toBe(ExitCode.USAGE);
      expect(r.stderr).toMatch(/the file is empty/);
      expect(r.stderr).not.toMatch(/--resume|looks like a bug/);
    }
  });

  it('a bad --map is a usage error, not a bug', async () => {
    await writeFile(path('in.csv'), 'external_id\nu1\n');
    const r = await cli(['import', 'in.csv', '--map', 'bad']);
    expect(r.code).toBe(ExitCode.USAGE);
    expect(r.stderr).not.toMatch(/looks like a bug/);
  });
});
