import { describe, expect, it } from 'vitest';
import { combineMaps, parseMapOption } from '../../src/cli/map-options.js';
import { summarizeMapping } from '../../src/cli/output/mapping-summary.js';
import { MappingError } from '../../src/importer/errors.js';
import { type ColumnMapping, normalizeHeader, resolveMapping } from '../../src/importer/mapping.js';
import { describeMapping, mappingRecord } from '../../src/importer/mapping-description.js';
import { DEFINITIONS, def } from './helpers.js';

const map = (header: string[], overrides: string[] = []): ColumnMapping =>
  resolveMapping({ header, definitions: DEFINITIONS, overrides: overrides.map(parseMapOption) });

describe('normalizeHeader', () => {
  it('ignores case, spaces, underscores, dashes and punctuation', () => {
    expect(
      ['External ID', 'external_id', 'EXTERNAL-ID', ' externalId ', 'E-mail', 'Phone #'].map(normalizeHeader),
    ).toEqual(['externalid', 'externalid', 'externalid', 'externalid', 'email', 'phone']);
  });
});

describe('resolveMapping: accents', () => {
  const societe = [
    { name: 'societe', type: 'text' as const, label: 'societe', description: null, archived: false },
  ];
  it('fills an attribute from a header of its name with Latin accents, as attribute names have none', () => {
    const mapping = resolveMapping({ header: ['external_id', 'Société'], definitions: societe });
    expect(describeMapping(mapping)).toEqual(['external_id -> external_id', 'Société -> attr.societe']);
  });

  it('leaves the accented header to a column named as the attribute is', () => {
    const mapping = resolveMapping({ header: ['external_id', 'Société', 'Societe'], definitions: societe });
    expect(describeMapping(mapping)).toEqual(['external_id -> external_id', 'Societe -> attr.societe']);
    expect(mapping.unmapped).toEqual(['Société']);
  });
});

describe('resolveMapping', () => {
  it('gives each unmapped column the attribute type its sample asks for', () => {
    const mapping = resolveMapping({
      header: ['External ID', 'Signed Up', 'Seats', 'Notes', 'Notes', 'Empty'],
      definitions: [],
      sample: [
        ['u1', '2024-05-31', '3', 'likes tea', '', ''],
        ['u2', '9/20/2022', ' 12 ', "'call first", 'x', undefined],
      ],
    });
    expect(mapping.unmapped).toEqual(['Signed Up', 'Seats', 'Notes', 'Notes', 'Empty']);
    // A second column of a defined attribute's name: unmapped, and no type to suggest.
    const twice = resolveMapping({
      header: ['External ID', 'plan', 'plan'],
      definitions: [{ name: 'plan', type: 'text', label: 'plan', description: null, archived: false }],
      sample: [['u1', 'pro', '3']],
    });
    expect(twice.unmapped).toEqual(['plan']);
    expect(twice.unmappedTypes.size).toBe(0);
    expect(Object.fromEntries(mapping.unmappedTypes)).toEqual({
      'Signed Up': 'date',
      Seats: 'number',
      Notes: 'text',
      Empty: 'text',
    });
  });

  it("fills a defined attribute from a custom field under its system's prefix", () => {
    // Close's `custom.<Field>`; `Custom Field: ...` and `cf_...` as other systems write theirs.
    const mapping = map(['id', 'custom.Plan', 'Custom Field: Seats', 'cf_vip', 'Customer', 'custom.Other']);
    expect(summarizeMapping(mapping)).toContain('custom.Plan -> attr.plan');
    expect(summarizeMapping(mapping)).toContain('Custom Field: Seats -> attr.seats');
    expect(summarizeMapping(mapping)).toContain('cf_vip -> attr.vip');
    expect(mapping.unmapped).toEqual(['Customer', 'custom.Other']);
  });

  it('takes a custom-field prefix only where a separator or a capital sets it off', () => {
    const definitions = [def('o', 'text'), def('plan', 'text'), def('er', 'text')];
    const mapping = resolveMapping({ header: ['id', 'CFO', 'cfPlan', 'Customer'], definitions });
    expect(summarizeMapping(mapping)).toContain('cfPlan -> attr.plan');
    expect(summarizeMapping(mapping)).not.toContain('attr.o');
    expect(summarizeMapping(mapping)).not.toContain('attr.er');
  });

  it('maps the usual synonyms of each contact field', () => {
    const cases: [string, string][] = [
      ['External ID', 'external_id'],
      ['user_id', 'external_id'],
      ['Customer ID', 'external_id'],
      ['ID', 'external_id'],
      ['E-mail', 'email'],
      ['Email Address', 'email'],
      ['Mail', 'email'],
      ['Phone', 'phonenumber'],
      ['Phone Number', 'phonenumber'],
      ['Mobile', 'phonenumber'],
      ['Telephone', 'phonenumber'],
      ['Tel', 'phonenumber'],
      ['Full Name', 'name'],
      ['Contact Name', 'name'],
    ];
    for (const [header, field] of cases) {
      const extra = field === 'external_id' ? [] : ['external_id'];
      const mapping = map([header, ...extra]);
      expect(mapping.columns[0], header).toEqual([{ kind: 'field', field }]);
    }
  });

  it('prefers the higher-ranked synonym and reports the other column as unmapped', () => {
    const mapping = map(['ID', 'Email', 'External ID', 'Mobile', 'Phone']);
    expect(mapping.columns).toEqual([
      [],
      [{ kind: 'field', field: 'email' }],
      [{ kind: 'field', field: 'external_id' }],
      [{ kind: 'field', field: 'phonenumber' }],
      [{ kind: 'field', field: 'phonenumber' }],
    ]);
    expect(mapping.unmapped).toEqual(['ID']);
  });

  it('fills phonenumber from every phone column: the main phone first, then mobile, then the others', () => {
    const mapping = map(['id', 'Home Phone', 'Mobile', 'Phone', 'Business Phone']);
    expect(mapping.phoneColumns).toEqual([2, 3, 4, 1]);
    expect(mapping.unmapped).toEqual([]);
    // --map names the fallback in its own order, and only those columns.
    const mapped = map(
      ['id', 'Home Phone', 'Mobile', 'Phone'],
      ['Mobile=phonenumber', 'Home Phone=phonenumber'],
    );
    expect(mapped.phoneColumns).toEqual([2, 1]);
    expect(mapped.unmapped).toEqual(['Phone']);
  });

  it('keys by the email when there is no id column, and says so', () => {
    const mapping = map(['Name', 'E-mail 1 - Value']);
    expect(mapping.keyFromEmail).toBe('E-mail 1 - Value');
    expect(summarizeMapping(mapping)).toBe(
      'Columns: no id column: external_id = E-mail 1 - Value, in lower case; Name -> name; E-mail 1 - Value -> email',
    );
  });

  it('recognises an export by its header and maps it by the table, naming the system', () => {
    const mapping = map([
      'Contact Owner',
      'First Name',
      'Last Name',
      'Mailing Country',
      'Phone',
      'Mobile',
      'Email',
      'Contact ID',
      'Signup Date',
    ]);
    expect(mapping.system?.id).toBe('salesforce-report');
    expect(summarizeMapping(mapping)).toBe(
      'Recognised the Salesforce report (details only) export: Contact ID -> external_id; ' +
        'First Name + Last Name -> name; Email -> email; Phone, Mobile -> phonenumber (first usable); ' +
        'Mailing Country -> phone country; Signup Date -> attr.signup_date',
    );
  });

  it('fills custom attributes from their names (normalised) and from attr.<name>', () => {
    const mapping = map(['external_id', 'Plan', 'Signup Date', 'attr.seats', 'ATTR.vip', 'Notes']);
    expect(describeMapping(mapping)).toEqual([
      'external_id -> external_id',
      'Plan -> attr.plan',
      'Signup Date -> attr.signup_date',
      'attr.seats -> attr.seats',
      'ATTR.vip -> attr.vip',
    ]);
    expect(mapping.unmapped).toEqual(['Notes']);
  });

  it('leaves the column of an archived attribute out (reported), by name or attr., unless --map asks', () => {
    expect(map(['external_id', 'Legacy Code']).unmapped).toEqual(['Legacy Code']);
    const exported = map(['external_id', 'attr.legacy_code']);
    expect(exported.columns[1]).toEqual([]);
    expect(exported.unmapped).toEqual(['attr.legacy_code']);
    const asked = resolveMapping({
      header: ['external_id', 'attr.legacy_code'],
      definitions: DEFINITIONS,
      overrides: [parseMapOption('attr.legacy_code=attr.legacy_code')],
    });
    expect(asked.columns[1]).toEqual([{ kind: 'attribute', name: 'legacy_code' }]);
  });

  it('refuses attr.<name> for an attribute the agent has not defined', () => {
    expect(() => map(['external_id', 'attr.tier'])).toThrow(MappingError);
    expect(() => map(['external_id', 'attr.tier'])).toThrow(
      'Column "attr.tier": custom attribute "tier" is not defined for this agent',
    );
  });

  it('joins first and last name, beside a full-name column where its cell is blank', () => {
    const joined = map(['First Name', 'Last Name', 'User ID']);
    expect(joined.columns.slice(0, 2)).toEqual([[{ kind: 'first_name' }], [{ kind: 'last_name' }]]);
    const full = map(['First Name', 'Name', 'Surname', 'User ID']);
    expect(full.columns.slice(0, 3)).toEqual([
      [{ kind: 'first_name' }],
      [{ kind: 'field', field: 'name' }],
      [{ kind: 'last_name' }],
    ]);
    expect(full.unmapped).toEqual([]);
  });

  it("reads abbreviated name parts, and takes a family's or household's id as no key", () => {
    // Church Community Builder's individuals: a person's `ccb_id`, their household's `family_id`
    // (its `family`, `Miller Family`, ranks after the last name).
    const ccb = map(['fname', 'lname', 'mname', 'legal_fname', 'family', 'family_id', 'ccb_id', 'email']);
    expect(ccb.columns).toEqual([
      [{ kind: 'first_name' }],
      [{ kind: 'last_name' }],
      [{ kind: 'middle_name' }],
      [],
      [],
      [],
      [{ kind: 'field', field: 'external_id' }],
      [{ kind: 'field', field: 'email' }],
    ]);
    // vCard N's parts as a converted CSV names them; a family's email is an email.
    expect(map(['Given', 'Family', 'Email']).columns.slice(0, 2)).toEqual([
      [{ kind: 'first_name' }],
      [{ kind: 'last_name' }],
    ]);
    const school = map(['Student First Name', 'Student Last Name', 'Family Email', 'Grade']);
    expect(school.keyFromEmail).toBe('Family Email');
    // Planning Center: the name a person goes by (`First Name`) before their legal one.
    const pco = map(['Given Name', 'First Name', 'Last Name', 'Home Email', 'Household ID']);
    expect(pco.columns.slice(0, 3)).toEqual([[], [{ kind: 'first_name' }], [{ kind: 'last_name' }]]);
    expect(pco.keyFromEmail).toBe('Home Email');
    // Google's `Given Name` alone is the first name.
    expect(map(['Given Name', 'Family Name', 'E-mail 1 - Value']).columns.slice(0, 2)).toEqual([
      [{ kind: 'first_name' }],
      [{ kind: 'last_name' }],
    ]);
  });

  it('lets --map overrides win over synonyms, ignore columns, and fill attributes', () => {
    const mapping = map(
      ['Email', 'Work Email', 'Kundennummer', 'Tarif', 'Phone', 'Memo'],
      ['Work Email=email', 'Kundennummer=external_id', 'Tarif=attr.plan', 'memo=-'],
    );
    expect(describeMapping(mapping)).toEqual([
      'Work Email -> email',
      'Kundennummer -> external_id',
      'Tarif -> attr.plan',
      'Phone -> phonenumber',
    ]);
    // The displaced synonym is reported; the column ignored with - is not.
    expect(mapping.unmapped).toEqual(['Email']);
  });

  it('skips the _line and _error columns of a rejects file silently', () => {
    const mapping = map(['external_id', 'email', '_line', '_error']);
    expect(mapping.columns.slice(2)).toEqual([[], []]);
    expect(mapping.unmapped).toEqual([]);
  });

  // The CLI's words for these, with its flags: test/cli/output/import-words.test.ts.
  const thrown = (f: () => unknown) => {
    try {
      f();
    } catch (error) {
      return error as MappingError;
    }
    throw new Error('did not throw');
  };

  it('fails clearly when no column maps to external_id or email', () => {
    const error = thrown(() => map(['Name', 'Notes']));
    expect(error).toBeInstanceOf(MappingError);
    expect(error.message).toBe(
      'No column maps to external_id, and no email column can stand in for it (columns: Name, Notes). ' +
        'Map one to external_id (a column can fill two fields: external_id and email).',
    );
    expect(error.detail).toEqual({ code: 'no_key_column', columns: ['Name', 'Notes'], notKeys: [] });
    expect(map(['Ref', 'Email'], ['Ref=external_id']).columns[0]).toEqual([
      { kind: 'field', field: 'external_id' },
    ]);
  });

  it('fails clearly on an override naming no column, an undefined attribute, or a field twice', () => {
    const noColumn = thrown(() => map(['external_id', 'Email'], ['Mail Addr=email']));
    expect(noColumn.message).toBe(
      'The file has no column "Mail Addr" to override (columns: external_id, Email)',
    );
    expect(noColumn.detail).toEqual({
      code: 'map_no_column',
      header: 'Mail Addr',
      columns: ['external_id', 'Email'],
      suggestion: '',
    });
    const undefinedAttribute = thrown(() => map(['external_id', 'X'], ['X=attr.nope']));
    expect(undefinedAttribute.message).toContain('custom attribute "nope" is not defined');
    expect(undefinedAttribute.detail).toMatchObject({
      code: 'attribute_not_defined',
      attribute: 'nope',
      override: 'X',
    });
    const twice = thrown(() => map(['external_id', 'A', 'B'], ['A=name', 'B=name']));
    expect(twice.message).toBe('Two columns are mapped to name; keep one of them');
    expect(twice.detail).toEqual({ code: 'map_duplicate_target', target: 'name' });
  });

  it('labels columns without a header by their number', () => {
    expect(map(['external_id', '', 'x']).unmapped).toEqual(['(column 2, no header)', 'x']);
  });
});

describe('exports of other tools', () => {
  it('recognises the headers of Google Contacts, Outlook, HubSpot, Salesforce and Mailchimp', () => {
    const cases: [string[], Record<string, string>][] = [
      // Google Contacts
      [
        [
          'First Name',
          'Last Name',
          'E-mail 1 - Label',
          'E-mail 1 - Value',
          'Phone 1 - Label',
          'Phone 1 - Value',
        ],
        { 'E-mail 1 - Value': 'email', 'Phone 1 - Value': 'phonenumber', 'First Name': 'name (first part)' },
      ],
      // Outlook
      [
        ['First Name', 'Last Name', 'E-mail Address', 'Business Phone', 'Mobile Phone'],
        { 'E-mail Address': 'email', 'Mobile Phone': 'phonenumber' },
      ],
      // HubSpot
      [
        ['Record ID', 'First Name', 'Last Name', 'Email', 'Phone Number'],
        { 'Record ID': 'external_id', Email: 'email', 'Phone Number': 'phonenumber' },
      ],
      // Salesforce: a report, and the Data Loader's API names
      [
        ['Contact ID', 'Full Name', 'Email', 'Mobile'],
        { 'Contact ID': 'external_id', 'Full Name': 'name', Mobile: 'phonenumber' },
      ],
      [
        ['Id', 'FirstName', 'LastName', 'Email', 'MobilePhone'],
        { Id: 'external_id', MobilePhone: 'phonenumber' },
      ],
      // Mailchimp
      [['Email Address', 'First Name', 'Last Name', 'Phone Number'], { 'Email Address': 'email' }],
    ];
    for (const [header, expected] of cases) {
      const hasId = Object.values(expected).includes('external_id');
      const mapping = resolveMapping({
        header,
        definitions: [],
        overrides: hasId
          ? []
          : [
              parseMapOption(
                `${Object.keys(expected).find((h) => expected[h] === 'email')}=external_id,email`,
              ),
            ],
      });
      const described = Object.fromEntries(
        describeMapping(mapping).map((l) => l.split(' -> ') as [string, string]),
      );
      for (const [h, target] of Object.entries(expected))
        expect(described[h], `${header.join('|')}: ${h}`).toContain(target);
    }
  });

  it('lets one column fill two fields, from one --map or two', () => {
    const header = ['E-mail 1 - Value', 'Name'];
    const one = map(header, ['E-mail 1 - Value=external_id,email']);
    expect(describeMapping(one)).toEqual(['E-mail 1 - Value -> external_id, email', 'Name -> name']);
    const two = resolveMapping({
      header,
      definitions: [],
      overrides: combineMaps(
        [],
        [parseMapOption('E-mail 1 - Value=external_id'), parseMapOption('E-mail 1 - Value=email')],
      ),
    });
    expect(describeMapping(two)).toEqual(describeMapping(one));
  });
});

describe('columns that place phone numbers', () => {
  it('says a time zone column places them, still listed among the columns no field takes', () => {
    const header = ['Invitee Email', 'Text Reminder Number', 'Invitee Time Zone', 'Notes'];
    const sample = [
      ['amelia@example.co.uk', '07911 123456', 'Europe/London', ''],
      ['ravi@example.in', '098765 43210', 'Asia/Kolkata', ''],
    ];
    const m = resolveMapping({ header, definitions: DEFINITIONS, sample });
    expect(summarizeMapping(m)).toContain('Invitee Time Zone -> phone country (GB, IN)');
    expect(describeMapping(m)).toContain(
      'Invitee Time Zone -> country (GB, IN; places national phone numbers)',
    );
    expect(m.unmapped).toEqual(['Invitee Time Zone', 'Notes']);
    // A resume must find it placing phones again (--map "Invitee Time Zone=-" would change that).
    expect(mappingRecord(m).placing).toEqual(['Invitee Time Zone']);
    expect(mappingRecord(map(['Email', 'Phone'])).placing).toBeUndefined();
    // A phone number is a number: the header's `Number` says nothing against its values.
    const contact = resolveMapping({
      header: ['Email', 'Contact Number'],
      definitions: DEFINITIONS,
      sample: [['a@x.io', '+44 7911 123456']],
    });
    expect(summarizeMapping(contact)).toContain('Contact Number (by its values) -> phonenumber');
    expect(contact.decisions.join('\n')).not.toContain('Contact Number');
    // `Text Reminder Number` (Calendly's) is the number texts go to, by its words.
    expect(summarizeMapping(m)).toContain('Text Reminder Number -> phonenumber');
    const member = resolveMapping({
      header: ['Email', 'Member ID'],
      definitions: DEFINITIONS,
      sample: [['a@x.io', '+44 7911 123456']],
    });
    expect(member.decisions.join('\n')).toContain(
      '"Member ID" holds phone numbers (by its values), though its header reads as an id',
    );
  });
});

describe('record fields of an export', () => {
  it('skips id, created_at and updated_at silently when external_id has its own column', () => {
    const m = resolveMapping({
      header: ['id', 'external_id', 'name', 'created_at', 'updated_at', 'notes'],
      definitions: [],
    });
    expect(m.unmapped).toEqual(['notes']);
    expect(m.columns[0]).toEqual([]);
  });

  it('still maps a lone ID column to external_id', () => {
    const m = resolveMapping({ header: ['ID', 'Name', 'created_at'], definitions: [] });
    expect(m.columns[0]).toEqual([{ kind: 'field', field: 'external_id' }]);
    expect(m.unmapped).toEqual(['created_at']);
  });
});
