// Column roles from header words and values together: what a person reading an unknown export
// would make of each column.
import { describe, expect, it } from 'vitest';
import { headerWords, inferColumns, roleByWords } from '../../src/importer/columns.js';
import type { Cell } from '../../src/importer/sources/types.js';

/** The role of each column, by header, for a header and rows. */
function roles(header: string[], rows: Cell[][] = []): Record<string, string | undefined> {
  const { columns, id } = inferColumns(header, rows);
  return Object.fromEntries(header.map((h, i) => [h, i === id ? 'id' : columns[i]?.role]));
}

describe('headerWords', () => {
  it('splits headers into words the way they are written in any style', () => {
    expect(headerWords('E-mail 2')).toEqual(['email', '2']);
    expect(headerWords('FirstName')).toEqual(['first', 'name']);
    expect(headerWords('firstname')).toEqual(['first', 'name']);
    expect(headerWords('emailaddress')).toEqual(['email', 'address']);
    expect(headerWords('Phone1')).toEqual(['phone', '1']);
    expect(headerWords('Person - Email - Work')).toEqual(['person', 'email', 'work']);
    expect(headerWords('Attendee #')).toEqual(['attendee', '#']);
    expect(headerWords('Téléphone')).toEqual(['telephone']);
    expect(headerWords('Kundennummer')).toEqual(['kunden', 'number']);
  });
});

describe('headerWords: Japanese, Chinese and Korean headers', () => {
  it('reads their words as the rules read English ones, the longest word first', () => {
    const roles = (headers: string[]) => headers.map((h) => roleByWords(headerWords(h)));
    expect(headerWords('お届け先電話番号')).toEqual(['shipping', 'phone', 'number']);
    expect(headerWords('ﾒｰﾙｱﾄﾞﾚｽ')).toEqual(['email']);
    expect(headerWords('電話番号1勤務先')).toEqual(['phone', 'number', '1', 'work']);
    // `姓` and `名` alone are the last and first name; `名` after other words a name (`顧客名`).
    expect(roles(['姓', '名', '氏名', 'お名前', '顧客名', '姓名', '이름', '고객명'])).toEqual([
      'last',
      'first',
      'name',
      'name',
      'name',
      'name',
      'name',
      'name',
    ]);
    expect(roles(['メールアドレス', '邮箱', '이메일', '携帯電話', '手机', '휴대폰', '電話番号'])).toEqual([
      'email',
      'email',
      'email',
      'phone',
      'phone',
      'phone',
      'phone',
    ]);
    expect(roles(['顧客ID', '会員番号', '国名', '国'])).toEqual(['id', 'id', 'country', 'country']);
    // A guardian's or parent's phone is someone else's; a messaging app's name (`LINE名`) no one's.
    expect(
      roles(['保護者・電話番号', '本人・電話番号', '緊急連絡先電話', 'LINE名', '名 ', '名（漢字）']),
    ).toEqual(['none', 'phone', 'none', undefined, 'first', 'first']);
  });

  it('reads a reading of a name (furigana, romaji), a postcode or a company as no name or phone', () => {
    const roles = (headers: string[]) => headers.map((h) => roleByWords(headerWords(h)));
    expect(roles(['セイ', 'メイ', '姓読み', '氏名（カナ）', '姓ローマ字'])).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(roles(['郵便番号', '会社名', '회사명', '都道府県'])).toEqual(['none', 'none', 'none', 'none']);
    // An order's, an invoice's or a parcel's number is no contact's id, as in English.
    expect(
      roles(['주문번호', '송장번호', '注文番号', '請求書番号', 'Tracking Number', '身份证号码']),
    ).toEqual(['none', 'none', 'none', 'none', 'none', 'none']);
    // A maiden name is not the name; a Japanese mobile's address is an email.
    expect(roles(['旧姓', '携帯アドレス', '客户编号'])).toEqual([undefined, 'email', 'id']);
  });
});

describe('inferColumns: header words', () => {
  it('reads emails, phones, countries, names and ids in their common forms', () => {
    expect(
      roles([
        'Email 1',
        'Work Email',
        'Phone 1',
        'Cell',
        'Phone - home',
        'Telephone',
        'Home Country',
        'Country/Region',
        'Given Name',
        'Surname',
        'Member no.',
      ]),
    ).toEqual({
      'Email 1': 'email',
      'Work Email': 'email',
      'Phone 1': 'phone',
      Cell: 'phone',
      'Phone - home': 'phone',
      Telephone: 'phone',
      'Home Country': 'country',
      'Country/Region': 'country',
      'Given Name': 'first',
      Surname: 'last',
      'Member no.': 'id',
    });
  });

  it("reads a sales export's buyer as the person: `Buyer Name` is the name, `Item Name` is not", () => {
    expect(
      roles(
        ['Purchase ID', 'Item Name', 'Buyer Name', 'Purchase Email', 'Buyer Email'],
        [['kXr2Qw9a==', 'Budget Template', 'Alex Rivera', 'alex@example.com', 'alex@example.com']],
      ),
    ).toMatchObject({ 'Purchase ID': undefined, 'Item Name': undefined, 'Buyer Name': 'name' });
  });

  it("reads a Zoom meeting's participants' `Name (Original Name)` as the name", () => {
    expect(
      roles(
        ['Name (Original Name)', 'User Email', 'Join Time', 'Leave Time', 'Duration (Minutes)', 'Guest'],
        [['Ann Lee', 'ann@example.com', '11/20/2026 09:00:00 AM', '11/20/2026 10:00:00 AM', '60', 'No']],
      ),
    ).toMatchObject({ 'Name (Original Name)': 'name', 'User Email': 'email' });
  });

  it("keys an event's attendees by their email, not by the id of one registration", () => {
    const rows: Cell[][] = [
      ['18441755061', 'Ana Reyes', 'ana@example.com'],
      ['18441755062', 'Bo Li', 'bo@example.com'],
    ];
    for (const header of [
      'Attendee #',
      'Registrant ID',
      'Invitee UUID',
      'Participant ID',
      'Teilnehmer-ID',
      'Appointment ID',
      'Booking ID',
      // A sale's (Gumroad's `Purchase ID`): a buyer's second purchase has another.
      'Purchase ID',
      'Sale ID',
      // A form's (Wufoo's): a second form numbers its entries 1, 2, 3 again.
      'Entry Id',
    ]) {
      const inferred = inferColumns([header, 'Name', 'Email'], rows);
      expect(inferred.id, header).toBeUndefined();
      expect(inferred.notKeys, header).toEqual([
        {
          index: 0,
          why: 'it numbers one registration, purchase or response (a ticket, a booking, a sale, a form or survey answered), not the person, who has another the next time: the email keys the contact',
        },
      ]);
    }
    // A person's own id beside it keys the contact as ever.
    expect(roles(['Attendee #', 'Contact ID', 'Email'], [['1', 'c1', 'a@example.com']])).toMatchObject({
      'Attendee #': undefined,
      'Contact ID': 'id',
    });
    // Without emails to key by, the registration's id is the best key there is.
    expect(
      roles(
        ['Attendee #', 'Name'],
        rows.map(([id, name]) => [id!, name!]),
      ),
    ).toMatchObject({
      'Attendee #': 'id',
    });
    expect(
      roles(
        ['Attendee #', 'Email'],
        [
          ['1', 'a@example.com'],
          ['2', ''],
          ['3', ''],
        ],
      ),
    ).toMatchObject({ 'Attendee #': 'id' });
  });

  it("keys a form or a numbered list by the email, not by a bare # (the rows' numbers), nor by a network's id", () => {
    // Typeform's responses export: the response's token under `#`, the respondent's network under `Network ID`.
    const header = ['#', 'What is your name?', 'What is your email?', 'Submit Date (UTC)', 'Network ID'];
    const rows: Cell[][] = [
      ['x7k2m9p4q1', 'Ann Lee', 'ann@example.com', '2024-03-01 10:02:00', 'ab12cd34ef'],
      ['z8y7x6w5v4', 'Bo Chan', 'bo@example.com', '2024-03-02 11:03:00', 'ff12cd34ef'],
    ];
    const inferred = inferColumns(header, rows);
    expect(inferred.id).toBeUndefined();
    expect(inferred.notKeys).toEqual([
      {
        index: 0,
        why: 'a bare number sign or No. numbers the rows (or, in a form, one response), not the person: the next export may number them otherwise, so the email keys the contact',
      },
    ]);
  });

  it('reads a name suffix column (Outlook Suffix, Google Name Suffix) as part of the name, not a phone suffix', () => {
    expect(roles(['First Name', 'Last Name', 'Suffix', 'Name Suffix', 'Phone Suffix'])).toMatchObject({
      'First Name': 'first',
      'Last Name': 'last',
      Suffix: 'suffix',
      'Name Suffix': 'suffix',
    });
    expect(roles(['Phone Suffix'])['Phone Suffix']).not.toBe('suffix');
  });

  it("leaves another thing's id, name, email or phone alone", () => {
    expect(
      roles([
        'Account ID',
        'Company Name',
        'Owner Email',
        'Assistant Phone',
        'Fax',
        'State',
        'Order #',
        'ID',
      ]),
    ).toEqual({
      'Account ID': undefined,
      'Company Name': undefined,
      'Owner Email': undefined,
      'Assistant Phone': undefined,
      Fax: undefined,
      State: undefined,
      'Order #': undefined,
      ID: 'id',
    });
  });

  it('orders phones mobile, main, work, home, other, and emails main first', () => {
    const header = ['Other Phone', 'Home Phone', 'Work Phone', 'Phone', 'Mobile', 'Email 2', 'Email'];
    const { columns } = inferColumns(header, []);
    const order = (role: string) =>
      header
        .map((h, i) => ({ h, c: columns[i] }))
        .filter((x) => x.c?.role === role)
        .sort((a, b) => a.c!.rank - b.c!.rank)
        .map((x) => x.h);
    expect(order('phone')).toEqual(['Mobile', 'Phone', 'Work Phone', 'Home Phone', 'Other Phone']);
    expect(order('email')).toEqual(['Email', 'Email 2']);
  });

  it('prefers a person id to a bare one, and a bare one to a system-named one', () => {
    expect(inferColumns(['ID', 'Contact ID', 'Name'], []).id).toBe(1);
    expect(inferColumns(['Klaviyo ID', 'ID'], []).id).toBe(1);
    expect(inferColumns(['Klaviyo ID', 'Email'], []).id).toBe(0);
    // A system's name before the person's id (Apollo) is the person's id, above a system's own.
    expect(inferColumns(['Klaviyo ID', 'Apollo Contact Id'], []).id).toBe(1);
  });
});

describe('inferColumns: values', () => {
  const rows: Cell[][] = [
    ['a@example.com', '+44 20 7946 0001', 'United Kingdom', 'yes', '5f0c7a3e-1b2d-4c5e-8f90-a1b2c3d4e5f6'],
    ['b@example.com', '(415) 555-0102', 'USA', 'no', '0d9c8b7a-6f5e-4d3c-2b1a-0f9e8d7c6b5a'],
    ['c@example.com', '020 7946 0003', 'GB', 'no', '11111111-2222-3333-4444-555555555555'],
  ];

  it('takes a column of emails, phones or countries for what it holds, whatever its name', () => {
    const inference = inferColumns(
      ['Contact', 'Reach me at', 'Where', 'Opted in', '(Do Not Modify) Contact'],
      rows,
    );
    expect(inference.columns.map((c) => c?.role)).toEqual(['email', 'phone', 'country', undefined, 'id']);
    expect(inference.columns[0]?.by).toBe('values');
    expect(inference.id).toBe(4);
  });

  it('lets values overrule a header word, and says which', () => {
    const inference = inferColumns(
      ['Name', 'Email Opt Out'],
      [
        ['a@example.com', 'yes'],
        ['b@example.com', 'no'],
        ['c@example.com', 'no'],
      ],
    );
    expect(inference.columns.map((c) => c?.role)).toEqual(['email', undefined]);
    expect(inference.overruled).toEqual([{ index: 0, header: 'name', values: 'email' }]);
  });

  it('keeps a name column of short names that are also country codes, and reads one of countries named', () => {
    const short = inferColumns(
      ['Name', 'First Name'],
      [
        ['Al', 'Bo'],
        ['Bo', 'Cy'],
        ['Cy', 'Al'],
      ],
    );
    expect(short.columns.map((c) => c?.role)).toEqual(['name', 'first']);
    expect(short.overruled).toEqual([]);
    const named = inferColumns(['Name'], [['Germany'], ['France'], ['Japan']]);
    expect(named.columns[0]?.role).toBe('country');
    expect(named.overruled).toEqual([{ index: 0, header: 'name', values: 'country' }]);
  });

  it('keeps a header word over a few values that are wrong (a typo is the row’s problem)', () => {
    const inference = inferColumns(['email'], [['nope'], ['']]);
    expect(inference.columns[0]?.role).toBe('email');
  });

  it('takes an id column only when it is filled and its values do not mostly repeat', () => {
    const sparse = inferColumns(
      ['ID', 'Email'],
      [
        ['1', 'a@example.com'],
        ['', 'b@example.com'],
        ['', 'c@example.com'],
      ],
    );
    expect(sparse.id).toBeUndefined();
    expect(sparse.notKeys).toEqual([{ index: 0, why: '2 of 3 rows have no value in it' }]);
    // `Unique` is what any id is: Freshdesk's `Unique external ID` is a plain id column, said when passed over.
    const freshdesk = inferColumns(
      ['Unique external ID', 'Email'],
      [
        ['CUST-1', 'a@example.com'],
        ['', 'b@example.com'],
      ],
    );
    expect(freshdesk.notKeys).toEqual([{ index: 0, why: '1 of 2 rows have no value in it' }]);
    // A file that updates one contact twice still has its id column.
    const twice = inferColumns(['ID'], [['1'], ['2'], ['1'], ['3']]);
    expect(twice.id).toBe(0);
  });

  it('keys a file whose rows mostly have no email by a column filled and unique in every row', () => {
    const inference = inferColumns(
      ['First Name', 'URL', 'Email Address', 'Company'],
      [
        ['Ann', 'https://www.linkedin.com/in/ann', '', 'Acme'],
        ['Bo', 'https://www.linkedin.com/in/bo', 'bo@example.com', 'Acme'],
        ['Cy', 'https://www.linkedin.com/in/cy', '', 'Initech'],
      ],
    );
    expect(inference.id).toBeUndefined();
    expect(inference.uniqueColumn).toBe(1);
  });

  it('points at ignored columns whose values look like phones (a fax), not at a state of two-letter codes', () => {
    const inference = inferColumns(
      ['Fax', 'State'],
      [
        ['+1 415 555 0199', 'CA'],
        ['+1 415 555 0198', 'DE'],
      ],
    );
    expect(inference.lookAlikes).toEqual([{ index: 0, looksLike: 'phone' }]);
  });

  it('does not take a column of numeric ids for phones', () => {
    const inference = inferColumns(['Ref'], [['51000000582'], ['51000000583'], ['51000000584']]);
    expect(inference.columns[0]).toBeUndefined();
  });
});

describe('inferColumns: what a new user met', () => {
  it('reads a "number" of phone values as the phone, not the id', () => {
    const inference = inferColumns(
      ['Name', 'Contact number', 'Mitgliedsnummer'],
      [
        ['Ada', '+44 20 7946 0958', 'M-1'],
        ['Bob', '(415) 555-0132', 'M-2'],
        ['Cy', '+41 44 123 45 67', 'M-3'],
      ],
    );
    expect(inference.columns[1]?.role).toBe('phone');
    expect(inference.id).toBe(2);
  });

  it('does not key contacts by a column that counts the rows', () => {
    const inference = inferColumns(
      ['#', 'Name', 'Email'],
      [
        ['1', 'Ada', 'a@example.com'],
        ['2', 'Bob', 'b@example.com'],
        ['3', 'Cy', 'c@example.com'],
      ],
    );
    expect(inference.id).toBeUndefined();
  });

  it("leaves a buyer's, a salesperson's or a guardian's email beside the contact's own unread, and points at it", () => {
    const inference = inferColumns(
      ['Buyer Email', 'Email', 'Salesperson/Email', 'Home E-mail'],
      [['buyer@example.com', 'ann@example.com', 'sam@ourco.example', '']],
    );
    expect(inference.columns.map((c) => c?.role)).toEqual([undefined, 'email', undefined, 'email']);
    expect(inference.lookAlikes.map((l) => l.index)).toEqual([2, 0]);
  });

  it("reads the email of the person the name is of, not a guest's or the host's (Calendly)", () => {
    const header = ['Invitee Name', 'Invitee Email', 'Guest Email(s)', 'User Email'];
    const row = ['Ann Lee', 'ann@example.com', 'guest@example.com', 'host@example.com'];
    const inference = inferColumns(header, [row, ['Bob Ray', '', 'g2@example.com', 'host@example.com']]);
    expect(inference.columns.map((c) => c?.role)).toEqual(['name', 'email', undefined, undefined]);
    // With no name of one of them, all are the contact's, in order.
    const unnamed = inferColumns(
      ['Name', 'Contact Email', 'Customer Email', 'Lead Email'],
      [['Ann Lee', 'a@x.io', 'b@x.io', 'c@x.io']],
    );
    expect(unnamed.columns.map((c) => c?.role)).toEqual(['name', 'email', 'email', 'email']);
  });

  it('reads names, ids and phones in other languages', () => {
    expect(
      roles(['Nombre', 'Apellidos', 'Kundennummer', 'Bestellnummer', 'Mobil', 'Pays', 'Code client']),
    ).toEqual({
      Nombre: 'name',
      Apellidos: 'last',
      Kundennummer: 'id',
      Bestellnummer: undefined,
      Mobil: 'phone',
      Pays: 'country',
      'Code client': undefined,
    });
  });

  it('reads one column naming both halves of a name as the whole name, in any language, numbered or not', () => {
    const role = (header: string) => roleByWords(headerWords(header));
    for (const header of [
      'First and Last Name',
      'Vorname Nachname',
      'Nombre y apellidos',
      'Nom et prénom',
      'Nome e cognome',
      '1. Nume și prenume',
    ]) {
      expect(role(header), header).toBe('name');
    }
    // One half alone stays a half; a question's number is no part of it.
    expect(role('Prénom')).toBe('first');
    expect(role('Apellidos')).toBe('last');
    expect(role('2. First Name')).toBe('first');
    expect(role('1. Name')).toBe('name');
  });

  it("takes a column saying another's kind (Keap's Phone 2 Type, Google's E-mail 1 - Type) for no phone or email, even empty", () => {
    const role = (header: string) => roleByWords(headerWords(header));
    for (const header of ['Phone 2 Type', 'E-mail 1 - Type', 'Phone Label'])
      expect(role(header), header).toBe('none');
    const inference = inferColumns(['Phone 1', 'Phone 2 Type'], [['+1 415 555 0100', '']]);
    expect(inference.columns.map((c) => c?.role)).toEqual(['phone', undefined]);
  });

  it("takes an address column ending with countries for the rows' country, and a street's column for none", () => {
    const inference = inferColumns(
      ['Phone Number', 'Address', 'Street Address'],
      [
        ['(030) 1234567', 'Hauptstraße 5\nBerlin, Berlin 10115\nGermany', 'Hauptstraße 5'],
        ['020 7946 0018', '10 Downing St\nLondon SW1A 2AA\nUnited Kingdom', '10 Downing St'],
        ['(212) 555-0123', '', ''],
      ],
    );
    expect(inference.columns.map((c) => c && [c.role, c.by])).toEqual([
      ['phone', 'words'],
      ['country', 'values'],
      undefined,
    ]);
    // A venue's or a company's address is not the contact's.
    const venue = inferColumns(
      ['Phone', 'Venue Address', 'Company Address'],
      [['020 7946 0018', 'Olympiastadion, Berlin, Germany', 'Acme, 1 Main St, Dublin, Ireland']],
    );
    expect(venue.columns.map((c) => c?.role)).toEqual(['phone', undefined, undefined]);
  });

  it("takes a column headed by the person's word alone for the name where its values are people's names", () => {
    const inference = inferColumns(
      ['Guest', 'Member', 'Email'],
      [
        ['Ann Lee', 'Gold', 'ann@example.com'],
        ['José de la Cruz', 'Silver', 'jose@example.com'],
      ],
    );
    expect(inference.columns.map((c) => c && [c.role, c.by])).toEqual([
      ['name', 'values'],
      undefined,
      ['email', 'words'],
    ]);
  });

  it("reads a form's question by the field it asks for", () => {
    const role = (header: string) => roleByWords(headerWords(header));
    for (const header of [
      'What is your full name?',
      "What's your name?",
      'Please enter your name',
      'Quel est votre nom ?',
    ]) {
      expect(role(header), header).toBe('name');
    }
    expect(role('What is your email address?')).toBe('email');
    // Words of something else than the person's name keep it no name: a ticket's is the ticket's.
    expect(role('Company Name')).toBe('none');
    for (const header of ["Ticket's Name", 'Ticket Name is', 'What is the ticket name?'])
      expect(role(header), header).toBeUndefined();
    expect(role('Is Name Public')).toBeUndefined();
  });

  it('takes no IP address, coordinate or ZIP+4 for a phone, and no country of birth for the country', () => {
    const inference = inferColumns(
      ['IP', 'Longitude', 'ZIP', 'Country of Birth', 'Nationality'],
      [
        ['192.168.10.20', '-122.4194', '94103-1234', 'India', 'DE'],
        ['10.0.0.1', '151.2093', '10001-0001', 'Kenya', 'FR'],
        ['172.16.0.9', '2.3522', '60601-4321', 'Peru', 'IT'],
      ],
    );
    expect(inference.columns.map((c) => c?.role)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      'country',
    ]);
  });

  it('judges a header by its few values only when they could not be one (flags, no digits)', () => {
    const few = inferColumns(['Email Opt Out', 'Phone Type', 'Phone'], [['yes', 'Mobile', '']]);
    expect(few.columns.map((c) => c?.role)).toEqual([undefined, undefined, 'phone']);
  });

  it('counts rows with an email in columns decided before it, so a plain Email column keeps the key', () => {
    const inference = inferColumns(
      ['Name', 'Email', 'Website'],
      [
        ['Ada', 'a@example.com', 'https://a.example'],
        ['Bob', 'b@example.com', 'https://b.example'],
      ],
      (i) => i === 1,
      [1],
    );
    expect(inference.emailShare).toBe(1);
    expect(inference.uniqueColumn).toBeUndefined();
  });

  it('takes a count (# Employees, No Show) for no id, so a unique count never keys the contacts', () => {
    // Apollo: `# Employees` comes before `Apollo Contact Id`, and its values may all differ.
    const apollo = inferColumns(
      ['First Name', 'Email', '# Employees', 'Apollo Contact Id'],
      [
        ['Maya', 'maya@metricai.example', '45', '65a1f0c2b3e4d5000123abcd'],
        ['Tom', 'tom@acme.example', '10,001', '65a1f0c2b3e4d5000123abd0'],
      ],
    );
    expect(apollo.id).toBe(3);
    expect(roleByWords(headerWords('# Employees'))).toBeUndefined();
    expect(roleByWords(headerWords('No Show'))).toBeUndefined();
    expect(roleByWords(headerWords('No. of Visits'))).toBeUndefined();
    expect(roleByWords(headerWords('Number Attending'))).toBeUndefined();
    expect(roleByWords(headerWords('No shows'))).toBeUndefined();
    // A count-word before a thing's name is that thing's number: an id.
    for (const header of [
      'Employee #',
      'No. Cliente',
      'Nº Abonado',
      'Nr. Medlem',
      'No. Badge',
      '# Ref',
      'Num. Tessera',
    ])
      expect(roleByWords(headerWords(header)), header).toBe('id');
  });

  it("reads a ticket's name, email and phone as its holder's, and the order's as another's (Tito)", () => {
    const tito = inferColumns(
      [
        'Ticket Full Name',
        'Ticket Email',
        'Ticket Phone Number',
        'Ticket Reference',
        'Order Email',
        'Order Phone Number',
      ],
      [
        [
          'Ada Lovelace',
          'ada@example.org',
          '+44 20 7946 0958',
          'QXYZ-1',
          'ada@example.org',
          '+44 20 7946 0958',
        ],
      ],
    );
    expect(tito.columns.map((c) => c?.role)).toEqual([
      'name',
      'email',
      'phone',
      undefined,
      undefined,
      undefined,
    ]);
    expect(tito.id).toBeUndefined();
    // `Ticket Name` names the ticket (General Admission), not its holder.
    expect(roleByWords(headerWords('Ticket Name'))).toBeUndefined();
  });

  it('takes a column of yes/no for no country, though No is Norway (Patreon: Free Member)', () => {
    const inference = inferColumns(
      ['User ID', 'Phone', 'Free Member', 'Where'],
      [
        ['1', '(207) 555-0188', 'No', 'Norway'],
        ['2', '+1 207 555 0143', 'No', 'NO'],
        ['3', '+1 207 555 0144', 'Yes', 'Sweden'],
      ],
    );
    expect(inference.columns.map((c) => c?.role)).toEqual(['id', 'phone', undefined, 'country']);
    // A Country column of Norwegians is one, however few its rows.
    const norway = inferColumns(
      ['Email', 'Phone', 'Country'],
      [
        ['ola@x.no', '41234567', 'NO'],
        ['kari@x.no', '91234567', 'NO'],
      ],
    );
    expect(norway.columns[2]?.role).toBe('country');
  });

  it("passes over a guest list's id that names no person for the email, as an attendee's", () => {
    const rows = [
      ['gst-aYohfrUt11ncUE1', 'Ana Reyes', 'ana@example.com', 'Standard'],
      ['gst-Qlwi4e4mqdtWDvN', 'Bo Ng', 'bo@example.com', 'VIP'],
    ];
    expect(inferColumns(['api_id', 'name', 'email', 'ticket_name'], rows).id).toBeUndefined();
    // Without tickets, the same id keys the contacts; a helpdesk's count of tickets is none.
    expect(inferColumns(['api_id', 'name', 'email', 'plan'], rows).id).toBe(0);
    expect(inferColumns(['api_id', 'name', 'email', 'Last Ticket Date'], rows).id).toBe(0);
  });

  it("ranks a name that says whose it is (a contact's, a customer's) before a bare or display name", () => {
    const rank = (header: string[]) => {
      const { columns } = inferColumns(header, []);
      return header
        .map((h, i) => ({ h, c: columns[i] }))
        .filter((x) => x.c?.role === 'name')
        .sort((a, b) => a.c!.rank - b.c!.rank)
        .map((x) => x.h);
    };
    // Close's lead: its display_name is the company; the person is the primary contact.
    expect(rank(['id', 'display_name', 'primary_contact_name', 'primary_contact_email'])).toEqual([
      'primary_contact_name',
      'display_name',
    ]);
    expect(rank(['Name', 'Contact Name', 'Email'])).toEqual(['Contact Name', 'Name']);
    // A login is no one's name.
    expect(rank(['User Name', 'Name', 'Email'])).toEqual(['Name']);
    expect(rank(['Full Name', 'Display Name'])).toEqual(['Full Name', 'Display Name']);
  });

  it('holds a system-named person id (Primary Contact ID) to unique values', () => {
    const inference = inferColumns(
      ['First Name', 'Email', 'Primary Contact ID'],
      [
        ['Ann', 'ann@example.com', 'C-1'],
        ['Bob', 'bob@example.com', 'C-1'],
        ['Cy', 'cy@example.com', 'C-2'],
      ],
    );
    expect(inference.id).toBeUndefined();
  });

  it("keys an order export by the buyer's id where each of its values comes back with the same buyer (Etsy)", () => {
    const header = ['Sale Date', 'Order ID', 'Buyer User ID', 'Full Name', 'Ship City'];
    const orders = inferColumns(header, [
      ['11/02/24', '3481120456', '104857261', 'Hannah Whitfield', 'Portland'],
      ['11/05/24', '3482017733', '99120344', "Liam O'Connor", 'Halifax'],
      ['11/09/24', '3483550912', '104857261', 'hannah  whitfield', 'Salem'],
    ]);
    expect(orders.id).toBe(2);
    // One id on two people's rows is no one's key, nor one whose rows say nothing of the person.
    const twoPeople = inferColumns(header, [
      ['11/02/24', '3481120456', '104857261', 'Hannah Whitfield', 'Portland'],
      ['11/09/24', '3483550912', '104857261', 'Jordan Whitfield', 'Salem'],
      ['11/05/24', '3482017733', '99120344', "Liam O'Connor", 'Halifax'],
    ]);
    expect(twoPeople.id).toBeUndefined();
    // Rows that name no one in between do not make two people one (the blank row comes first).
    const blankFirst = inferColumns(header, [
      ['11/01/24', '3481120400', '104857261', '', 'Portland'],
      ['11/02/24', '3481120456', '104857261', 'Hannah Whitfield', 'Portland'],
      ['11/05/24', '3482017733', '99120344', "Liam O'Connor", 'Halifax'],
      ['11/09/24', '3483550912', '104857261', 'Jordan Whitfield', 'Salem'],
    ]);
    expect(blankFirst.id).toBeUndefined();
    // Where rows have emails, they key: an id of what a person holds (a subscription, a pass)
    // repeats with its holder too.
    const held = inferColumns(
      ['Order Date', 'Subscription ID', 'Customer Name', 'Customer Email'],
      [
        ['2024-01-03', '501', 'Ann Lee', 'ann@example.com'],
        ['2024-01-04', '502', 'Bob Diaz', 'bob@example.com'],
        ['2024-02-03', '501', 'Ann Lee', 'ann@example.com'],
        ['2024-02-05', '503', 'Ann Lee', 'ann@example.com'],
      ],
    );
    expect(held.id).toBeUndefined();
    // Nor does an id whose header names no person.
    const pass = inferColumns(
      ['Visit Date', 'Pass ID', 'Name'],
      [
        ['2024-05-01', 'P-17', 'Sam Kato'],
        ['2024-05-02', 'P-22', 'Ria Sen'],
        ['2024-05-08', 'P-17', 'Sam Kato'],
      ],
    );
    expect(pass.id).toBeUndefined();
    const noOne = inferColumns(header, [
      ['11/02/24', '3481120456', '104857261', 'Hannah Whitfield', 'Portland'],
      ['11/09/24', '3483550912', '104857261', '', 'Salem'],
      ['11/05/24', '3482017733', '99120344', "Liam O'Connor", 'Halifax'],
    ]);
    expect(noOne.id).toBeUndefined();
  });

  it("keys a sales report by the buyer's email, not by the number of one sale (eBay's Sales Record Number)", () => {
    const inference = inferColumns(
      ['Sales Record Number', 'Order Number', 'Buyer Name', 'Buyer Email'],
      [
        ['1001', '04-11872-55310', 'Pat Smith', 'pat@example.com'],
        ['1002', '11-11873-90211', 'Bo Keene', 'bo@example.com'],
        ['1003', '26-11874-10233', 'Pat Smith', 'pat@example.com'],
      ],
    );
    expect(inference.id).toBeUndefined();
    expect(inference.notKeys.map((n) => n.index)).toEqual([0]);
    // An order's number is no phone of anyone's, whatever its digits look like; a fax is one.
    expect(inference.lookAlikes).toEqual([]);
    const fax = inferColumns(['Order Number', 'Fax'], [['04-11872-55310', '+1 415 555 0199']]);
    expect(fax.lookAlikes).toEqual([{ index: 1, looksLike: 'phone' }]);
    // A message's sender is someone's number: still pointed at.
    const sms = inferColumns(['From', 'Body'], [['+1 415 555 0199', 'hi']]);
    expect(sms.lookAlikes).toEqual([{ index: 0, looksLike: 'phone' }]);
  });

  it("takes a name column of no letters for no one's name (Shopify orders' Name, #1001)", () => {
    const inference = inferColumns(
      ['Name', 'Email', 'Billing Name'],
      [
        ['#1001', 'ann@example.com', 'Ann Lee'],
        ['#1002', 'bob@example.com', 'Bob Diaz'],
      ],
    );
    expect(inference.columns[0]).toBeUndefined();
    // The billing name is the buyer's.
    expect(inference.columns[2]?.role).toBe('name');
  });

  it('reads the name of whose it says (Name of Attendee, NameOfAttendee), not a name of something else', () => {
    expect(roles(['Name of Attendee', 'NameOfGuest', 'Name of Company', 'Email'])).toEqual({
      'Name of Attendee': 'name',
      NameOfGuest: 'name',
      'Name of Company': undefined,
      Email: 'email',
    });
  });
});
