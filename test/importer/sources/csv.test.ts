import { describe, expect, it } from 'vitest';
import { SourceParseError } from '../../../src/importer/errors.js';
import { countRows, openSource } from '../../../src/importer/sources/index.js';
import type { SourceRecord } from '../../../src/importer/sources/types.js';
import { fixture, readAll, stdinOf } from '../helpers.js';

describe('CSV source', () => {
  it('reads header and rows with the physical line each row starts on', async () => {
    const path = await fixture('c.csv', 'external_id,name\n1,Ann\n2,Bob\n');
    const source = await openSource(path);
    expect(source.format).toBe('csv');
    expect(source.header).toEqual(['external_id', 'name']);
    expect(source.delimiter).toBe(',');
    const rows = [];
    for await (const r of source.records) rows.push(r);
    expect(rows.map((r) => [r.line, r.record, r.raw])).toEqual([
      [2, { external_id: '1', name: 'Ann' }, ['1', 'Ann']],
      [3, { external_id: '2', name: 'Bob' }, ['2', 'Bob']],
    ]);
  });

  it('strips a UTF-8 BOM and reports it, and reads CRLF line endings', async () => {
    const path = await fixture(
      'bom.csv',
      '\uFEFFexternal_id,email\r\n1,a@example.com\r\n2,b@example.com\r\n',
    );
    const source = await openSource(path);
    expect(source.header).toEqual(['external_id', 'email']);
    expect(source.bom).toBe(true);
    const rows = [];
    for await (const r of source.records) rows.push(r);
    expect(rows.map((r) => [r.line, r.raw])).toEqual([
      [2, ['1', 'a@example.com']],
      [3, ['2', 'b@example.com']],
    ]);
  });

  it('sniffs a semicolon delimiter, ignoring commas inside quotes', async () => {
    const path = await fixture('semi.csv', '"Name, full";external_id;Plan\n"Smith, Ann";1;pro\n');
    const source = await openSource(path);
    expect(source.delimiter).toBe(';');
    expect(source.header).toEqual(['Name, full', 'external_id', 'Plan']);
    const rows = [];
    for await (const r of source.records) rows.push(r.raw);
    expect(rows).toEqual([['Smith, Ann', '1', 'pro']]);
  });

  it('sniffs tab in a .csv file, and .tsv files are tab-separated', async () => {
    const tabbed = 'external_id\tname\n7\tAnn, the first\n';
    const csv = await readAll(await fixture('t.csv', tabbed));
    const tsv = await readAll(await fixture('t.tsv', tabbed));
    expect(csv.map((r) => r.raw)).toEqual([['7', 'Ann, the first']]);
    expect(tsv.map((r) => r.raw)).toEqual([['7', 'Ann, the first']]);
  });

  it('keeps quoted commas, doubled quotes and newlines, and counts lines after a multi-line field', async () => {
    const text = [
      'external_id,name,notes',
      '1,"Smith, Ann","said ""hi"""',
      '2,Bob,"line one',
      'line two',
      'line three"',
      '3,Cy,"crlf\r\ninside"',
      '4,Di,plain',
      '',
    ].join('\n');
    const rows = await readAll(await fixture('q.csv', text));
    expect(rows.map((r) => [r.line, r.raw])).toEqual([
      [2, ['1', 'Smith, Ann', 'said "hi"']],
      [3, ['2', 'Bob', 'line one\nline two\nline three']],
      [6, ['3', 'Cy', 'crlf\r\ninside']],
      [8, ['4', 'Di', 'plain']],
    ]);
  });

  it('counts lines right in a CRLF file with a multi-line field (csv-parse alone counts them twice)', async () => {
    const text = 'external_id,notes\r\n1,"a\r\nb\r\nc"\r\n2,x\r\n';
    const rows = await readAll(await fixture('crlf.csv', text));
    expect(rows.map((r) => r.line)).toEqual([2, 5]);
  });

  it('skips blank lines and rows of empty cells, keeping line and row numbers', async () => {
    const text = 'external_id,name\n\n1,Ann\n,\n  ,  \n\n2,Bob\n';
    const rows = await readAll(await fixture('blank.csv', text));
    expect(rows.map((r) => [r.row, r.line])).toEqual([
      [1, 3],
      [2, 7],
    ]);
  });

  it('hands on a row of the wrong width with an error instead of shifting its values', async () => {
    const rows = await readAll(
      await fixture('w.csv', 'external_id,name,email\n1,Ann\n2,Bob,b@x.io,extra\n3,Cy,c@x.io\n'),
    );
    expect(rows.map((r) => [r.line, r.error ?? null])).toEqual([
      [2, 'Row has 2 fields but the header has 3'],
      [3, 'Row has 4 fields but the header has 3: a value containing "," must be quoted'],
      [4, null],
    ]);
    expect(rows[1]!.raw).toEqual(['2', 'Bob', 'b@x.io', 'extra']);
  });

  it('accepts empty cells after the last column (a trailing delimiter)', async () => {
    const rows = await readAll(await fixture('t.csv', 'external_id;name\n1;Ann;\n2;Bob;;\n3;Cy;x\n'));
    expect(rows.map((r) => [r.raw, r.error ?? null])).toEqual([
      [['1', 'Ann'], null],
      [['2', 'Bob'], null],
      [['3', 'Cy', 'x'], 'Row has 3 fields but the header has 2: a value containing ";" must be quoted'],
    ]);
  });

  it('reports a malformed quote with file, line and column, after the good rows before it', async () => {
    const path = await fixture('bad.csv', 'external_id,name\n1,"multi\nline"\n2,Bo"b\n3,Cy\n');
    const source = await openSource(path);
    const seen: number[] = [];
    let caught: unknown;
    try {
      for await (const r of source.records) seen.push(r.line);
    } catch (error) {
      caught = error;
    }
    expect(seen).toEqual([2]);
    expect(caught).toBeInstanceOf(SourceParseError);
    const e = caught as SourceParseError;
    expect([e.file, e.line, e.column]).toEqual([path, 4, 2]);
    expect(e.message).toBe(
      `${path}: line 4, column 2: a quote in the middle of an unquoted value: ` +
        'a quote inside a value must be doubled ("") and the whole value quoted',
    );
  });

  it('reports text after a closing quote, and a quote never closed, at the line of their record', async () => {
    const closing = await fixture('closing.csv', 'external_id,name\r\n1,"Ann"x\r\n');
    await expect(readAll(closing)).rejects.toMatchObject({
      name: 'SourceParseError',
      line: 2,
      column: 2,
      reason: expect.stringContaining('unexpected characters after a closing quote'),
    });
    const open = await fixture('open.csv', 'external_id,name\n1,Ann\n2,"Bob\n3,Cy\n4,Di\n');
    await expect(readAll(open)).rejects.toMatchObject({
      name: 'SourceParseError',
      line: 3,
      column: 2,
      reason: 'a quote opened in this record is never closed',
    });
  });

  it('drops the _line and _error columns of a rejects file', async () => {
    const path = await fixture('r.csv', 'external_id,_line,name,_error\n1,5,Ann,"email: Invalid email"\n');
    const source = await openSource(path);
    expect(source.header).toEqual(['external_id', 'name']);
    const rows = [];
    for await (const r of source.records) rows.push([r.raw, r.record]);
    expect(rows).toEqual([[['1', 'Ann'], { external_id: '1', name: 'Ann' }]]);
  });

  it('keys repeated and empty headers by column so no cell is lost', async () => {
    const rows = await readAll(await fixture('d.csv', 'external_id,Email,Email,\n1,a@x.io,b@x.io,z\n'));
    expect(rows[0]!.record).toEqual({
      external_id: '1',
      Email: 'a@x.io',
      'Email (column 3)': 'b@x.io',
      'column 4': 'z',
    });
  });

  it('refuses an empty file: there is no header', async () => {
    await expect(openSource(await fixture('empty.csv', ''))).rejects.toThrow('the file is empty');
  });

  it('reads stdin in small chunks that split lines and multi-byte characters', async () => {
    const text = '\uFEFFexternal_id;name\r\n1;Zoë Ångström\r\n2;"Søren\r\nKierkegaard"\r\n3;Łukasz\r\n';
    const rows = await readAll('-', { stdin: stdinOf(text, 3) });
    expect(rows.map((r) => [r.line, r.raw])).toEqual([
      [2, ['1', 'Zoë Ångström']],
      [3, ['2', 'Søren\r\nKierkegaard']],
      [5, ['3', 'Łukasz']],
    ]);
  });

  it('names a missing file clearly', async () => {
    await expect(openSource('/nonexistent/dir/contacts.csv')).rejects.toThrow(
      'Cannot read /nonexistent/dir/contacts.csv: no such file',
    );
  });

  it('closes the file when the reader stops early', async () => {
    const path = await fixture(
      'many.csv',
      `external_id\n${Array.from({ length: 1000 }, (_, i) => i).join('\n')}\n`,
    );
    const source = await openSource(path);
    const first = [];
    for await (const r of source.records) {
      first.push(r.raw![0]);
      if (first.length === 2) break;
    }
    expect(first).toEqual(['0', '1']);
  });

  it('counts the rows the source yields (quoted newlines, blank rows and the header left out)', async () => {
    const text = '\uFEFFexternal_id;notes\r\n1;"a\r\nb"\r\n\r\n;\r\n2;x\r\n3;"say ""hi""\n"\n4;y';
    const path = await fixture('n.csv', text);
    expect(await readAll(path)).toHaveLength(4);
    expect(await countRows(path, 'csv')).toBe(4);
    expect(await countRows(await fixture('h.csv', 'external_id\n'), 'csv')).toBe(0);
  });
});

describe('lines that are no contacts around the table', () => {
  const open = async (name: string, text: string) => {
    const notes: string[] = [];
    const source = await openSource(await fixture(name, text), {
      onNote: (note) => notes.push(note.message),
    });
    const rows: SourceRecord[] = [];
    for await (const r of source.records) rows.push(r);
    return { source, rows, notes };
  };

  it('skips the lines before the header, and says how many', async () => {
    const text =
      'Notes:\n"When exporting your connection data, some email addresses may be missing."\n\n' +
      'First Name,Last Name,URL,Email Address\nAnn,Lee,https://example.com/in/ann,\nBo,Chan,https://example.com/in/bo,bo@example.com\n';
    const { source, rows, notes } = await open('Connections.csv', text);
    expect(source.header).toEqual(['First Name', 'Last Name', 'URL', 'Email Address']);
    expect(rows.map((r) => r.line)).toEqual([5, 6]);
    expect(notes).toContain('3 lines before the header (line 4) are not contacts ("Notes:", …): skipped');
  });

  it("takes the last section of a report as the table (a summary section's header comes first)", async () => {
    const text =
      'Attendee Report,,,\nReport Generated:,"Nov 20, 2026",,\nTopic,Webinar ID,Registered,Attended\nLaunch,852 1848 6288,40,31\n' +
      'Attendee Details,,,\nAttended,First Name,Last Name,Email\nYes,Ann,Lee,ann@example.com\nNo,Bo,Chan,bo@example.com\n';
    const { source, rows } = await open('report.csv', text);
    expect(source.header).toEqual(['Attended', 'First Name', 'Last Name', 'Email']);
    expect(rows).toHaveLength(2);
  });

  it("reads every group of a board whose groups each repeat the header under their title (Monday.com's export)", async () => {
    const header = 'Name,Subitems,Status,Email,Phone,Item ID (auto generated)';
    const text =
      `Client Contacts,,,,,\n,,,,,\nActive clients,,,,,\n${header}\n` +
      'Hannah Schmidt,,Done,hannah@example.de,+49 30 1234567,1111111111\nRaj Mehta,,Stuck,raj@example.in,+91 98765 43210,1111111112\n' +
      `,,,,,\nLeads,,,,,\n${header}\nTom Walker,,New,tom@example.com,+1 415 555 0101,1111111114\n`;
    const { source, rows, notes } = await open('board.csv', text);
    expect(source.header).toEqual(header.split(','));
    expect(rows.map((r) => r.raw?.[0])).toEqual(['Hannah Schmidt', 'Raj Mehta', 'Tom Walker']);
    expect(notes).toEqual([
      '3 lines before the header (line 4) are not contacts ("Client Contacts", …): skipped',
      'line 8 is a group\'s title ("Leads") over the header repeated: skipped',
      'line 9 repeats the header row: skipped',
    ]);
  });

  it('keeps a row of a name alone right over the header repeated: only after a blank line is it a title', async () => {
    const text =
      'Name,Phone,Company\nAlice,+14155550101,Acme\nBob Jones,,\nName,Phone,Company\nCarol,+14155550103,Beta\n';
    const { rows, notes } = await open('pasted.csv', text);
    expect(rows.map((r) => [r.line, r.raw?.[0]])).toEqual([
      [2, 'Alice'],
      [3, 'Bob Jones'],
      [5, 'Carol'],
    ]);
    expect(notes).toEqual(['line 4 repeats the header row: skipped']);
  });

  it('reads every row of an ordinary list whatever its values, a one-cell row among them', async () => {
    // Field words as values (a preferred channel, a job title) after a row of a name alone.
    const list = await open(
      'list.csv',
      'Name,Email,Company,Preferred Contact,Lead Source\nAnn Lee,ann@example.com,Acme,Email,Web\n' +
        'Cara Diaz,,,,\nDan Roe,,Globex,Phone,Email\nEve Park,eve@example.com,Initech,Email,Referral\n',
    );
    expect(list.rows.map((r) => r.raw?.[0])).toEqual(['Ann Lee', 'Cara Diaz', 'Dan Roe', 'Eve Park']);
    expect(list.notes).toEqual([]);
    // The header in capitals under a one-cell row is the header repeated, not another table; the
    // one-cell row with no blank line before it is a row (it may be a contact's name alone).
    const groups = await open(
      'groups.csv',
      'Name,Email,Phone\nAnn Lee,ann@example.com,+1 202 555 0100\nCustomers,,\nNAME,E-MAIL,PHONE\n' +
        'Bo Ng,bo@example.com,+1 202 555 0101\nCy Li,cy@example.com,+1 202 555 0102\n',
    );
    expect(groups.rows.map((r) => r.raw?.[0])).toEqual(['Ann Lee', 'Customers', 'Bo Ng', 'Cy Li']);
    // A company called Total, and addresses alone after a blank line at the end, are contacts.
    const tail = await open(
      'tail.csv',
      'Company,Contact,Email\nAcme,Ann Lee,ann@example.com\nTotal Wine & More,Cy Diaz,cy@example.com\n\n' +
        'late@example.com,,\nTotal,2,\n',
    );
    expect(tail.rows.map((r) => r.raw?.[0])).toEqual(['Acme', 'Total Wine & More', 'late@example.com']);
    expect(tail.notes).toEqual(['line 6 is a footer after the last row ("Total"): not contacts, skipped']);

    // A name alone after a blank line, then a row whose channels are the header's words: rows,
    // not another section (its cells leave gaps where a header names every column).
    const channels = await open(
      'channels.csv',
      'Name,Email,Phone,Preferred,Backup,Last resort\nAlice Smith,alice@example.com,+44 20 7946 0958,Email,Phone,Post\n\n' +
        'Dan Only,,,,,\nHarry Nomail,,,Email,Phone,Post\nGina Words,gina@example.com,+44 7911 123456,Phone,Email,Post\n' +
        'Ian Words,ian@example.com,,Email,Phone,Post\n',
    );
    expect(channels.rows.map((r) => r.raw?.[0])).toEqual([
      'Alice Smith',
      'Dan Only',
      'Harry Nomail',
      'Gina Words',
      'Ian Words',
    ]);
    const owners = await open(
      'owners.csv',
      'ID,Name,Email,Phone,Preferred,Backup\nC1,Ann Lee,ann@example.com,+1 202 555 0100,Email,Phone\n\nC2,,,,,\n' +
        'C3,Owner,,,Email,Phone\nC4,Bo Ng,bo@example.com,,Phone,Email\n',
    );
    expect(owners.rows.map((r) => r.raw?.[0])).toEqual(['C1', 'C2', 'C3', 'C4']);
    // Channels alone in their columns after a name alone: rows, though no cell is empty among them.
    const late = await open(
      'late.csv',
      'Name,Email,Phone,Company,Preferred,Backup,Last resort,Other\nAnn Lee,ann@example.com,,Acme,Email,Phone,Post,SMS\n\n' +
        'Dan Moe,,,,,,,\n,,,,Email,Phone,Post,SMS\nCat Diaz,cat@example.com,,Beta,Phone,Email,Post,SMS\n',
    );
    expect(late.rows.map((r) => r.raw?.[0])).toEqual(['Ann Lee', 'Dan Moe', undefined, 'Cat Diaz']);
  });

  it('keeps every row where a row of field words follows a name alone, and a header narrower than its rows', async () => {
    // The header is not the widest row (an unlabelled column of notes), and a row's values are
    // field words: still the first row heads the whole file.
    const wide = await open(
      'wide.csv',
      'Name,Email,Phone,Company,\nAlice,alice@x.com,+14155550101,Acme,vip\nBob Jones,,,,\n' +
        'Carl Meyer,,,Globex,Mobile\nP1 Person,p1@x.com,+14155550201,Co1,\nP2 Person,p2@x.com,+14155550202,Co2,\n',
    );
    expect(wide.source.header).toEqual(['Name', 'Email', 'Phone', 'Company', '']);
    expect(wide.rows.map((r) => r.raw?.[0])).toEqual([
      'Alice',
      'Bob Jones',
      'Carl Meyer',
      'P1 Person',
      'P2 Person',
    ]);
    const sparse = await open(
      'sparse.csv',
      'Name,Email,Phone,Preferred,Backup\nAlice,alice@x.com,+14155550101,Email,Phone\nBob Jones,,,,\n' +
        'Carl Diaz,,,Phone,Email\nDan,dan@x.com,+14155550104,Phone,Email\n',
    );
    expect(sparse.rows.map((r) => r.raw?.[0])).toEqual(['Alice', 'Bob Jones', 'Carl Diaz', 'Dan']);
    // A surname Sum is no totals row: a totals row holds amounts beside its word.
    const sum = await open(
      'sum.csv',
      'Last Name,First Name,Phone\nLee,Ann,+14155550101\nSum,Alice,+14155550102\n',
    );
    expect(sum.rows.map((r) => r.raw?.[0])).toEqual(['Lee', 'Sum']);
  });

  it('keeps the one-cell rows over a repeated header that are contacts (email-only subscribers)', async () => {
    const text =
      'Email,First Name,Last Name\na@x.com,A,L\n\nb@x.com,,\nc@x.com,,\nEmail,First Name,Last Name\nd@x.com,D,L\n';
    const { rows, notes } = await open('pasted.csv', text);
    expect(rows.map((r) => r.raw?.[0])).toEqual(['a@x.com', 'b@x.com', 'c@x.com', 'd@x.com']);
    expect(notes).toEqual(['line 6 repeats the header row: skipped']);
  });

  it('keeps the first row as the header of an ordinary file, whatever rows follow', async () => {
    // A sparse row and a row of words only: no section break before a second header.
    const text =
      'Name,City,Email\nAnn,London,ann@example.com\n,Paris,\nBo,Rome,bo@example.com\nCy,Oslo,cy@example.com\n';
    const { source, rows } = await open('plain.csv', text);
    expect(source.header).toEqual(['Name', 'City', 'Email']);
    expect(rows).toHaveLength(4);
  });

  it('reads a totals row and a padded footer at the end as no contacts', async () => {
    const text =
      'Name,Email,Amount\nAnn,ann@example.com,100\nBo,bo@example.com,250\nTotal,,350\n\nGenerated by Sheets,,\n';
    const { rows, notes } = await open('totals.csv', text);
    expect(rows.map((r) => r.raw?.[0])).toEqual(['Ann', 'Bo']);
    expect(notes.join('\n')).toMatch(/lines 4-6 are a footer after the last row \("Total", …\)/);
  });

  it("reads a report's time stamp alone on its last line as no contact, and as a row where rows follow", async () => {
    // QuickBooks' Customer Contact List ends with when it was run, right after the last row.
    const stamp = '" Sunday, August 09, 2026 04:04 PM GMT-05:00",,';
    const text = `Customer full name,Phone numbers,Email\nAnn,Phone:(415) 555-0161,ann@example.com\n${stamp}\n`;
    const { rows, notes } = await open('report.csv', text);
    expect(rows.map((r) => r.raw?.[0])).toEqual(['Ann']);
    expect(notes.join('\n')).toMatch(
      /line 3 is a footer after the last row \("Sunday, August 09, 2026 04:04 PM/,
    );
    const more = await open('report.csv', `${text}Bo,,bo@example.com\n`);
    expect(more.rows).toHaveLength(3);
  });

  it('reads on past many blank rows (a sheet saved with its empty rows)', async () => {
    const text = `Name,Email\nAnn,ann@example.com\n${',\n'.repeat(20_000)}Bo,bo@example.com\n`;
    const { rows } = await open('blank-rows.csv', text);
    expect(rows.map((r) => r.raw?.[0])).toEqual(['Ann', 'Bo']);
  });
});
