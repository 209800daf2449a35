// Rows of cells -> records for every tabular source: the header found among preamble lines, keys
// made unique, and the leftovers of exports (blank rows, repeated headers, totals) skipped.
import { describe, expect, it } from 'vitest';
import { isBlank, readTable, recordChars, uniqueKeys } from '../../../src/importer/sources/table.js';
import type { Cell, SourceRecord } from '../../../src/importer/sources/types.js';

function rowsOf(rows: Cell[][]) {
  let i = 0;
  return async () => (i < rows.length ? { cells: rows[i]!, line: i + 1, last: ++i } : null);
}

async function table(rows: Cell[][], widthError?: (fields: number, expected: number) => string) {
  const notes: string[] = [];
  const read = await readTable({
    name: 'list.csv',
    read: rowsOf(rows),
    note: (note) => notes.push(note.message),
    widthError,
  });
  const records: SourceRecord[] = [];
  if (read) for await (const r of read.records()) records.push(r);
  return { header: read?.header, records, notes };
}

/** Rows at the lines given: a CSV's blank lines are a gap in the line numbers. */
async function gapped(rows: [number, Cell[]][]) {
  let i = 0;
  const notes: string[] = [];
  const read = await readTable({
    name: 'list.csv',
    read: async () => {
      const row = rows[i++];
      return row ? { cells: row[1], line: row[0], last: row[0] } : null;
    },
    note: (note) => notes.push(note.message),
  });
  const records: SourceRecord[] = [];
  for await (const r of read!.records()) records.push(r);
  return { header: read!.header, records, notes };
}

describe('readTable', () => {
  it('refuses a file with no header row, naming the line of values it would have read as one', async () => {
    // TextFlow's contact lists have none: phone,firstName,lastName,email,business,tags.
    const rows: Cell[][] = [
      ['4165551234', 'Jane', 'Smith', 'jane@example.com', 'ABC Company', 'vip'],
      ['6475551234', 'Bob', 'Johnson', 'bob@example.com', 'XYZ Corp', 'prospect'],
      ['4165555678', 'Alice', 'Williams', '', 'Tech Solutions', 'customer'],
    ];
    await expect(table(rows)).rejects.toThrow(
      // Lines 1 and 2 hold emails, so no header; the third, read as one, holds a number.
      'list.csv: line 3: no header row: the line holds a contact\'s values ("4165555678"), ' +
        "not the columns' names; add a first line naming its 6 columns (name,email,phone,...)",
    );
    await expect(table([['ann@example.com'], ['bo@example.com']])).rejects.toThrow(
      'add a first line naming its column',
    );
    // Dates and school years head columns (an attendance sheet's), a handle's column says `@`:
    // over no phone numbers or addresses, the header still is one.
    const labels = ['Name', 'Email', '20240105', '2023-2024', 'Twitter @handle', 'Write to help@school.org'];
    const dated = await table([labels, ['Ann Lee', 'ann@example.com', 'x', 'yes', '@ann', 'hi']]);
    expect(dated.header).toEqual(labels);
  });

  it('reads the header and each row as a record by it, with its line', async () => {
    const { header, records } = await table([
      ['external_id', 'name'],
      ['u1', 'Ann'],
      ['u2', undefined],
    ]);
    expect(header).toEqual(['external_id', 'name']);
    expect(records.map((r) => [r.row, r.line, r.record])).toEqual([
      [1, 2, { external_id: 'u1', name: 'Ann' }],
      [2, 3, { external_id: 'u2', name: undefined }],
    ]);
  });

  it('skips a preamble before the header, and says so', async () => {
    const { header, records, notes } = await table([
      ['Contacts report'],
      ['Generated 2026-01-01'],
      [undefined],
      ['Email', 'First Name', 'Last Name'],
      ['a@x.co', 'Ann', 'Lee'],
      ['b@x.co', 'Bo', 'Ng'],
    ]);
    expect(header).toEqual(['Email', 'First Name', 'Last Name']);
    expect(records.map((r) => r.line)).toEqual([5, 6]);
    expect(notes.join('\n')).toMatch(/line/);
  });

  it('ends a section at blank lines a CSV leaves out, before another header', async () => {
    // A CSV's blank lines are no rows, only a gap in the line numbers.
    // An event's own row over its attendees.
    const event = await gapped([
      [1, ['Event', 'Date', 'Email']],
      [2, ['Spring Fair', '2024-05-01', 'events@example.com']],
      [4, ['First Name', 'Last Name', 'Email', 'Phone']],
      [5, ['Ann', 'Lee', 'ann@example.com', '+1 415 555 0101']],
      [6, ['Bob', 'Ray', 'bob@example.com', '+1 415 555 0102']],
    ]);
    expect(event.header).toEqual(['First Name', 'Last Name', 'Email', 'Phone']);
    expect(event.records.map((r) => r.line)).toEqual([5, 6]);
    expect(event.notes).toContain(
      'lines 1-2 are another section ("Event", with a header of its own at line 1), not read: to import it, save it as a file of its own',
    );
    // As wide as the attendees' header, and naming a field of its own: still the event's.
    const wide = await gapped([
      [1, ['Event', 'Date', 'Email', 'Venue']],
      [2, ['Spring Fair', '2024-05-01', 'events@example.com', 'Hall']],
      [4, ['First Name', 'Last Name', 'Email', 'Phone']],
      [5, ['Ann', 'Lee', 'ann@example.com', '+1 415 555 0101']],
    ]);
    expect(wide.header).toEqual(['First Name', 'Last Name', 'Email', 'Phone']);
    expect(wide.records.map((r) => r.line)).toEqual([5]);
    // The header again after blank lines, in capitals: the same table's next group, all read.
    const again = await gapped([
      [1, ['Leads export']],
      [2, ['Name', 'Email', 'Phone']],
      [3, ['Ann', 'ann@example.com', '1']],
      [5, ['NAME', 'E-MAIL', 'PHONE']],
      [6, ['Bob', 'bob@example.com', '2']],
      [7, ['Cy', 'cy@example.com', '3']],
    ]);
    expect(again.header).toEqual(['Name', 'Email', 'Phone']);
    expect(again.records.map((r) => r.record['Email'])).toEqual([
      'ann@example.com',
      'bob@example.com',
      'cy@example.com',
    ]);
    // A column renamed in the header again: its rows line up with the table's, all read, and the
    // header is said again in other words (another tool's labels of the same fields), no row.
    const renamed = await gapped([
      [1, ['Name', 'Email', 'Phone', 'Company', 'Notes']],
      [2, ['Ann', 'ann@example.com', '1', 'Acme', '']],
      [4, ['Name', 'Email', 'Mobile', 'Company', 'Notes']],
      [5, ['Bob', 'bob@example.com', '2', 'Beta', '']],
    ]);
    expect(renamed.records.map((r) => r.record['Email'])).toEqual(['ann@example.com', 'bob@example.com']);
    expect(renamed.notes).toContain('line 4 repeats the header row: skipped');
    const otherTool = await gapped([
      [1, ['Name', 'Email', 'Phone', 'Company']],
      [2, ['Ann Lee', 'ann@example.com', '+1 617 555 0101', 'Acme']],
      [3, ['Bob Ray', 'bob@example.com', '+1 512 555 0102', 'Beta']],
      [5, ['Full Name', 'Email Address', 'Mobile', 'Organisation']],
      [6, ['Cy Fox', 'cy@example.com', '+1 303 555 0103', 'Gamma']],
    ]);
    expect(otherTool.records.map((r) => r.line)).toEqual([2, 3, 6]);
    // A row of values that are field words, after blank lines, is a row (`Email,Mobile,Phone`: a
    // contact's preferred ways, in order).
    const channels = await gapped([
      [1, ['Name', 'Company', 'Preferred Contact', 'Second Choice', 'Third Choice']],
      [2, ['Ann Lee', 'Acme', 'Email', 'Phone', 'Post']],
      [3, ['Bob Ray', 'Beta', 'Phone', 'Email', 'Post']],
      [5, ['Cy Fox', 'Gamma', 'Email', 'Mobile', 'Phone']],
    ]);
    expect(channels.records.map((r) => r.line)).toEqual([2, 3, 5]);
    // Another table after blank lines, with no title: not read, and said.
    const second = await gapped([
      [1, ['Name', 'Email', 'Phone', 'City']],
      [2, ['Alice Wong', 'alice@example.com', '+1 312 555 0199', 'Chicago']],
      [4, ['Company', 'Contact Email', 'Phone', 'City']],
      [5, ['Acme Inc', 'info@acme.example.com', '(800) 555-0100', 'Boston']],
    ]);
    expect(second.records.map((r) => r.line)).toEqual([2]);
    expect(second.notes).toContain(
      'lines 4-5 are another section ("Company", with a header of its own at line 4), not read: to import it, save it as a file of its own',
    );
    // Blank lines between rows of values end nothing: the rows after them are the table's.
    const plain = await gapped([
      [1, ['Event', 'Email', 'Phone']],
      [2, ['Fair', 'ann@example.com', '1']],
      [4, ['Gala', 'bob@example.com', '2']],
    ]);
    expect(plain.records.map((r) => r.record['Email'])).toEqual(['ann@example.com', 'bob@example.com']);
    // The header again with more labels is the header repeated: its columns past the table's are
    // said not read.
    const wider = await gapped([
      [1, ['Name', 'Email']],
      [2, ['Ann', 'ann@example.com']],
      [3, ['Cy', 'cy@example.com']],
      [5, ['Name', 'Email', 'Phone', 'Company']],
      [6, ['Bob', 'bob@example.com', '+44 20 7946 0011', 'Acme']],
    ]);
    expect(wider.records.map((r) => r.line)).toEqual([2, 3, 6]);
    expect(wider.notes).toContain(
      'line 5 repeats the header row with more columns ("Phone", "Company"), not read: skipped',
    );
    // The header's labels in another order right after its rows: another list, whose rows are
    // not in the table's columns (its first and last names would be swapped).
    const swapped = await gapped([
      [1, ['First Name', 'Last Name', 'Email', 'Phone']],
      [2, ['Olivia', 'Smith', 'olivia@example.com', '+1 415 555 0100']],
      [3, ['Last Name', 'First Name', 'Email', 'Phone']],
      [4, ['Park', 'Zoe', 'zoe@example.com', '+1 415 555 0125']],
    ]);
    expect(swapped.records.map((r) => r.line)).toEqual([2]);
    expect(swapped.notes).toContain(
      'lines 3-4 are another section ("Last Name", with a header of its own at line 3), not read: to import it, save it as a file of its own',
    );
    // Rows of values holding field words end nothing: a directory's `Family`, a surname `Handy`
    // (a German mobile), a job in `Phone Support`.
    const directory = await table([
      ['Type', 'Last Name', 'First Name', 'Preferred', 'City', 'Phone'],
      ['Family', 'Baker', 'Ann', 'Home', 'Denver', '+1 303-555-0101'],
      ['Family', 'Smith', 'John', 'Cell', 'Springfield', '+1 417-555-0109'],
      ['Handy', 'Bill', 'Mobile', 'Cell', 'Tulsa', undefined],
      ['Mobile Handy', 'Email Marketing Lead', 'Phone Support', 'Cell Co', 'Leeds', undefined],
      ['Individual', 'Fox', 'Eve', 'Work', 'Seattle', '+1 206-555-0104'],
    ]);
    expect(directory.records.map((r) => r.line)).toEqual([2, 3, 4, 5, 6]);
    // After blank lines too, where the row is no wider than the rows before it.
    const groups = await gapped([
      [1, ['Last Name', 'First Name', 'Company', 'City', 'Email', 'Phone']],
      [2, ['Baker', 'Ann', 'Acme', 'Denver', 'ann@example.com', '+1 303-555-0101']],
      [4, ['Handy', 'Bill', 'Mail Boxes Etc', 'Mobile', undefined, undefined]],
      [5, ['Cole', 'Cara', 'Initech', 'Austin', 'cara@example.com', '+1 512-555-0102']],
    ]);
    expect(groups.records.map((r) => r.line)).toEqual([2, 4, 5]);
    // Where the source refuses a row of another width, the rows under it say why.
    const widthError = (fields: number, expected: number) => `Row has ${fields} fields, not ${expected}`;
    const csv = await table(
      [
        ['Name', 'Email'],
        ['Ann', 'ann@example.com'],
        ['Name', 'Email', 'Phone'],
        ['Bob', 'bob@example.com', '+44 20 7946 0011'],
      ],
      widthError,
    );
    expect(csv.records.map((r) => r.error)).toEqual([
      undefined,
      'Row has 3 fields but the header has 2: line 3 says the header again with more columns ("Phone"); to import the rows under it, save them as a file of their own',
    ]);
  });

  it('reads a narrow list of people above a wider table, and says the table is not read', async () => {
    const list: [number, Cell[]][] = [
      [1, ['Name', 'Email']],
      [2, ['Ann Lee', 'ann@example.com']],
      [3, ['Bob Ray', 'bob@example.com']],
      [4, ['Cy Fox', 'cy@example.com']],
    ];
    const wide = (people: number): [number, Cell[]][] => [
      [6, ['First Name', 'Last Name', 'Email Address', 'Mobile', 'Company']],
      ...Array.from({ length: people }, (_, k): [number, Cell[]] => [
        7 + k,
        [`P${k}`, 'Quinn', `p${k}@example.com`, `+44 20 7946 001${k}`, 'Acme'],
      ]),
    ];
    const first = await gapped([...list, ...wide(2)]);
    expect(first.header).toEqual(['Name', 'Email']);
    expect(first.records.map((r) => r.line)).toEqual([2, 3, 4]);
    expect(first.notes).toContain(
      'lines 6-8 are another section ("First Name", with a header of its own at line 6), not read: to import it, save it as a file of its own',
    );
    // The table over more people is the one read; the list is said to be a section not read,
    // not lines that hold no contacts.
    const second = await gapped([...list, ...wide(5)]);
    expect(second.header).toEqual(['First Name', 'Last Name', 'Email Address', 'Mobile', 'Company']);
    expect(second.records.map((r) => r.line)).toEqual([7, 8, 9, 10, 11]);
    expect(second.notes).toContain(
      'lines 1-4 are another section ("Name", with a header of its own at line 1), not read: to import it, save it as a file of its own',
    );
    expect(second.notes.join('\n')).not.toContain('not contacts');
    // Role addresses with no name column are no list of people: the table is read.
    const roles = await gapped([
      [1, ['Organizer', 'Email']],
      [2, ['Jane Host', 'jane@host.example.com']],
      [3, ['Sam Co', 'sam@host.example.com']],
      ...wide(1).map(([line, cells]): [number, Cell[]] => [line - 1, cells]),
    ]);
    expect(roles.records.map((r) => r.line)).toEqual([6]);
    // The same when the table names no more fields than the list.
    const samefields = await gapped([
      ...list,
      [6, ['Name', 'Email', 'Company', 'Title', 'Ticket Type']],
      ...Array.from({ length: 4 }, (_, k): [number, Cell[]] => [
        7 + k,
        [`P${k} Quinn`, `p${k}@example.com`, 'Acme', 'VP', 'GA'],
      ]),
    ]);
    expect(samefields.records.map((r) => r.line)).toEqual([7, 8, 9, 10]);
    expect(samefields.notes).toContain(
      'lines 1-4 are another section ("Name", with a header of its own at line 1), not read: to import it, save it as a file of its own',
    );
  });

  it("reads a report's section of people, and ends the table where another section begins", async () => {
    // A Teams attendance report (test/fixtures/unseen/EVIDENCE.md): participants, then each
    // session of theirs under a header of its own.
    const teams = await table([
      ['1. Summary'],
      ['Meeting title', 'Partner Sync'],
      ['Start time', '3/4/25, 9:58:12 AM'],
      [undefined],
      ['2. Participants'],
      ['Name', 'First Join', 'Email', 'Role'],
      ['Ann Lee', '3/4/25, 9:58:12 AM', 'ann@example.com', 'Organizer'],
      ['Bo Ng', '3/4/25, 10:00:03 AM', 'bo@example.com', 'Attendee'],
      [undefined],
      ['3. In-Meeting Activities'],
      ['Name', 'Join Time', 'Email', 'Role'],
      ['Ann Lee', '3/4/25, 9:58:12 AM', 'ann@example.com', 'Organizer'],
      ['Bo Ng', '3/4/25, 10:00:03 AM', 'bo@example.com', 'Attendee'],
      ['Bo Ng', '3/4/25, 10:21:00 AM', 'bo@example.com', 'Attendee'],
    ]);
    expect(teams.header).toEqual(['Name', 'First Join', 'Email', 'Role']);
    expect(teams.records.map((r) => r.line)).toEqual([7, 8]);
    expect(teams.notes).toEqual([
      '5 lines before the header (line 6) are not contacts ("1. Summary", …): skipped',
      'lines 10-14 are another section ("3. In-Meeting Activities", with a header of its own at line 11), not read: to import it, save it as a file of its own',
    ]);
    // Zoom's: the attendees, who name the most fields, over the host; then a section of others
    // with no blank line before its title, under the attendees' own labels.
    const zoom = await table([
      ['Host Details', undefined, undefined, undefined],
      ['User Name (Original Name)', 'Email', 'Join Time', undefined],
      ['Host', 'host@example.com', '16:58', undefined],
      ['Attendee Details', undefined, undefined, undefined],
      ['User Name (Original Name)', 'First Name', 'Email', 'Join Time'],
      ['Ann Lee', 'Ann', 'ann@example.com', '17:01'],
      ['bo@example.com', undefined, undefined, undefined],
      ['Other Attended', undefined, undefined, undefined],
      ['User Name (Original Name)', 'Join Time', 'Is Guest', 'Country/Region Name'],
      ['Guest Caller', '17:30', 'Yes', 'Canada'],
    ]);
    expect(zoom.header).toEqual(['User Name (Original Name)', 'First Name', 'Email', 'Join Time']);
    // A one-cell row of an address is a row, not a title.
    expect(zoom.records.map((r) => r.line)).toEqual([6, 7]);
    expect(zoom.notes.at(-1)).toBe(
      'lines 8-10 are another section ("Other Attended", with a header of its own at line 9), not read: to import it, save it as a file of its own',
    );
  });

  it("reads the section of the most people, not a host's that names more fields", async () => {
    const { header, records, notes } = await table([
      ['Webinar Report'],
      ['Host Details'],
      ['Name', 'Email', 'Phone', 'Company'],
      ['Jane Host', 'jane@host.example', '+1 202 555 0100', 'HostCo'],
      [undefined],
      ['Attendee Details'],
      ['Name', 'Email', 'Join Time', 'Duration'],
      ['Ann Lee', 'ann@example.com', '17:01', '50'],
      ['Bo Ng', 'bo@example.com', '17:02', '40'],
    ]);
    expect(header).toEqual(['Name', 'Email', 'Join Time', 'Duration']);
    expect(records.map((r) => r.line)).toEqual([8, 9]);
    // The host's section holds a person: said as a section not read, not as lines of no contacts.
    expect(notes).toEqual([
      '6 lines before the header (line 7) are not read ("Webinar Report", …)',
      'lines 2-4 are another section ("Host Details", with a header of its own at line 3), not read: to import it, save it as a file of its own',
    ]);
  });

  it('ends a section before the table where the table begins, and counts no repeated header as a person', async () => {
    // No blank or title row between the host's section and the attendees' header.
    const joined = await table([
      ['Webinar report'],
      ['Name', 'Email', 'Minutes'],
      ['Jane Host', 'jane@host.example', '90'],
      ['Attendee', 'Company', 'Email', 'Phone'],
      ['Ann Lee', 'Acme', 'ann@example.com', '0161 496 0000'],
      ['Bo Ng', 'Acme', 'bo@example.com', '0161 496 0001'],
      ['Cy Li', 'Acme', 'cy@example.com', '0161 496 0002'],
      ['Di Wu', 'Acme', 'di@example.com', '0161 496 0003'],
    ]);
    expect(joined.header).toEqual(['Attendee', 'Company', 'Email', 'Phone']);
    expect(joined.notes[1]).toMatch(/^lines 1-3 are another section \("Webinar report"/);
    // Host and panelists under one header repeated: two people, not three, against three attendees.
    const zoom = await table([
      ['Host'],
      ['Name', 'Email'],
      ['Jane Host', 'jane@host.example'],
      ['Panelists'],
      ['Name', 'Email'],
      ['Pat Panel', 'pat@example.com'],
      [undefined],
      ['Attendees'],
      ['Name', 'Email', 'Join Time'],
      ['Ann Lee', 'ann@example.com', '17:01'],
      ['Bo Ng', 'bo@example.com', '17:02'],
      ['Cy Li', 'cy@example.com', '17:03'],
    ]);
    expect(zoom.records.map((r) => r.record.Name)).toEqual(['Ann Lee', 'Bo Ng', 'Cy Li']);
  });

  it('ends a table that starts further right at a section headed in its columns', async () => {
    const { records, notes } = await table([
      [undefined, undefined, 'Name', 'Email', 'Role', 'Minutes'],
      [undefined, undefined, 'Ann Lee', 'ann@example.com', 'Host', '60'],
      [undefined],
      ['Panelists'],
      [undefined, undefined, 'Email', 'Name', 'Role', 'Duration'],
      [undefined, undefined, 'pat@example.com', 'Pat Panel', 'Panelist', '50'],
    ]);
    expect(records.map((r) => r.record.Name)).toEqual(['Ann Lee']);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^lines 4-6 are another section \("Panelists"/);
  });

  it('skips the header said again in capitals, with or without a title over it', async () => {
    const { records, notes } = await table([
      ['Name', 'Email', 'Phone'],
      ['Ann Lee', 'ann@example.com', '+1 202 555 0100'],
      ['NAME', 'EMAIL', 'PHONE'],
      ['Bo Ng', 'bo@example.com', '+1 202 555 0101'],
    ]);
    expect(records.map((r) => r.record.Name)).toEqual(['Ann Lee', 'Bo Ng']);
    expect(notes).toEqual(['line 3 repeats the header row: skipped']);
  });

  it("ends the table at a section whose header follows a column of row numbers (pandas' index)", async () => {
    const { records, notes } = await table([
      ['Name', 'Email', 'Phone', 'Company'],
      ['Ann Lee', 'ann@example.com', '+1 202 555 0100', 'Acme'],
      [undefined],
      ['Sessions'],
      [undefined, 'Name', 'Email', 'Join Time', 'Duration'],
      ['0', 'Ann Lee', 'ann@example.com', '17:01', '50'],
    ]);
    expect(records.map((r) => r.record.Name)).toEqual(['Ann Lee']);
    expect(notes).toEqual([
      'lines 4-6 are another section ("Sessions", with a header of its own at line 5), not read: to import it, save it as a file of its own',
    ]);
  });

  it('skips blank rows, a repeated header and a totals row, saying so', async () => {
    const { records, notes } = await table([
      ['name', 'seats'],
      ['Ann', '3'],
      [' ', undefined],
      ['name', 'seats'],
      ['Bo', '4'],
      ['Total', '7'],
    ]);
    expect(records.map((r) => r.record.name)).toEqual(['Ann', 'Bo']);
    expect(notes.length).toBeGreaterThanOrEqual(2);
  });

  it('a row of another width is rejected where the source says so, else cut to the header', async () => {
    const csv = await table(
      [
        ['a', 'b'],
        ['1', '2', '3'],
      ],
      (fields, expected) => `${fields} fields, expected ${expected}`,
    );
    expect(csv.records[0]!.error).toBe('3 fields, expected 2');
    const sheet = await table([
      ['a', 'b'],
      ['1', '2', 'note'],
    ]);
    expect(sheet.records[0]!.record).toEqual({ a: '1', b: '2' });
  });

  it("reads a survey's header of two rows as one: the fields under its blank cells, the questions as asked", async () => {
    // SurveyMonkey's layout (test/fixtures/unseen/EVIDENCE.md): answers' labels in a second row.
    const { header, records, notes } = await table([
      ['Respondent ID', 'Collector ID', 'Contact information:', undefined, undefined, 'Which plan?', 'Why?'],
      [undefined, undefined, 'Name', 'Email', 'Phone Number', 'Response', 'Open-Ended Response'],
      ['118052219061', '446111201', 'Ann Lee', 'ann@example.com', '(415) 555-0101', 'Pro', 'Price'],
    ]);
    expect(header).toEqual([
      'Respondent ID',
      'Collector ID',
      'Name',
      'Email',
      'Phone Number',
      'Which plan?',
      'Why?',
    ]);
    expect(records.map((r) => [r.line, r.record.Email])).toEqual([[3, 'ann@example.com']]);
    expect(notes).toEqual([
      'line 2 goes on with the header ("Email", "Phone Number" under its blank cells): read as part of it',
    ]);
  });

  it("reads a header said again in words (Qualtrics) as part of it, and skips the columns' metadata row", async () => {
    const { header, records, notes } = await table([
      ['StartDate', 'ResponseId', 'RecipientEmail', 'Q1', 'Q2'],
      ['Start Date', 'Response ID', 'Recipient Email', 'What is your phone number?', 'Any comments?'],
      [
        '{"ImportId":"startDate"}',
        '{"ImportId":"_recordId"}',
        '{"ImportId":"recipientEmail"}',
        '{"ImportId":"QID1_TEXT"}',
        '{"ImportId":"QID2"}',
      ],
      ['2023-03-01 09:00:01', 'R_1a2B3c4D5e6F7g8', 'ann@example.com', '(303) 555-0101', 'Great'],
    ]);
    // Only the words say what Q1 holds; Q2's words name no field, so its code stays.
    expect(header).toEqual(['StartDate', 'ResponseId', 'RecipientEmail', 'What is your phone number?', 'Q2']);
    expect(records.map((r) => r.line)).toEqual([4]);
    expect(notes).toEqual([
      'line 2 says the header in words ("Start Date", "Response ID", "Recipient Email", …): read as part of it',
      'line 3 describes the columns ({"ImportId":"startDate"}, …), not a contact: skipped',
    ]);
  });

  it("reads a survey's second row labelling its single questions' answers as part of the header", async () => {
    // SurveyMonkey's questions asked one by one: `Response` under each, nothing under its metadata.
    const { header, records, notes } = await table([
      ['Respondent ID', 'Collector ID', 'What is your name?', 'What is your email address?', 'Why?'],
      [undefined, undefined, 'Response', 'Response', 'Open-Ended Response'],
      ['118052219061', '446111201', 'Ann Lee', 'ann@example.com', 'Price'],
    ]);
    expect(header).toEqual([
      'Respondent ID',
      'Collector ID',
      'What is your name?',
      'What is your email address?',
      'Why?',
    ]);
    expect(records.map((r) => r.line)).toEqual([3]);
    expect(notes).toEqual([
      'line 2 labels the answers under the header ("Response", "Open-Ended Response"), not a contact: read as part of the header',
    ]);
    // A row of data: its first cell holds a value, or its answers differ, or they are yes and no.
    for (const second of [
      ['r1', undefined, 'Response', 'Response', 'Response'],
      [undefined, undefined, 'Ann', 'Lee', 'Price'],
      [undefined, undefined, 'Yes', 'Yes', 'Yes'],
      // A row of data whose values repeat, but not under every column to the last.
      [undefined, 'Lee', 'Acme', 'Acme', undefined],
      [undefined, 'Unknown', 'Unknown', undefined, undefined],
    ]) {
      const read = await table([['Id', 'Plan', 'Name', 'Email', 'Why?'], second]);
      expect(read.records, JSON.stringify(second)).toHaveLength(1);
    }
  });

  it('reads a row of labels after a header with blank cells as data, unless it names a field there', async () => {
    const { header, records } = await table([
      ['Company', 'Contact', undefined],
      ['Acme', 'Ann Lee', 'Key account'],
      ['Initech', 'Bo Ng', undefined],
    ]);
    expect(header).toEqual(['Company', 'Contact', '']);
    expect(records.map((r) => r.record.Company)).toEqual(['Acme', 'Initech']);
    // Values: an email is no label, whatever the row says under a blank cell.
    const emails = await table([
      ['Contact', undefined],
      ['Ann Lee', 'ann@example.com'],
    ]);
    expect(emails.records).toHaveLength(1);
    // A first row of data whose cell under a blank header names a field (a phone's type): data.
    const types = await table([
      ['First Name', 'Last Name', 'Phone', undefined, 'Notes'],
      ['Ann', 'Lee', undefined, 'Mobile', 'VIP'],
      ['Bob', 'Ray', '+1 555 123 4567', 'Work', undefined],
    ]);
    expect(types.header).toEqual(['First Name', 'Last Name', 'Phone', '', 'Notes']);
    expect(types.records.map((r) => r.record['First Name'])).toEqual(['Ann', 'Bob']);
  });

  it('is null for no rows at all', async () => {
    expect(await readTable({ name: 'empty.csv', read: rowsOf([]), note: () => {} })).toBeNull();
  });
});

describe('helpers', () => {
  it('uniqueKeys numbers empty and repeated headers so no column is lost', () => {
    expect(uniqueKeys(['Email', ' ', 'Email', 'Name'])).toEqual([
      'Email',
      'column 2',
      'Email (column 3)',
      'Name',
    ]);
  });

  it('isBlank and recordChars', () => {
    expect(isBlank([undefined, ' ', ''])).toBe(true);
    expect(isBlank([undefined, 'x'])).toBe(false);
    expect(recordChars(['ab', undefined, 'é'])).toBe(3);
  });
});
