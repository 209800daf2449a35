// The exports of the systems people leave, as data: how each one's header is recognised, and
// which of its columns hold the id, the name parts, the emails, the phones (in the order they
// fill `phonenumber`) and the country that places a national number. The evidence for every
// header is in test/fixtures/exports/EVIDENCE.md; a column named here was seen in a real export.
import { normalizeHeader } from './mapping.js';
import type { PlanNote } from './notes.js';
import { type DateOrder, GOOGLE_MULTI_VALUE } from './values.js';

export interface ExportProfile {
  /** Short name, for `--map-file` offers and tests (`hubspot`). */
  id: string;
  /** What the first line of an import says was recognised. */
  label: string;
  /**
   * Headers that together identify the export: all of them present (compared as normalised).
   * Several sets: any one of them is enough (exports change their headers over the years).
   */
  signatures: readonly (readonly string[])[];
  /** The id column (external_id), by preference; none for exports keyed by email (Google, Outlook). */
  key?: readonly string[];
  /** A full-name column, when the export has one (preferred over the parts). */
  name?: readonly string[];
  first?: readonly string[];
  middle?: readonly string[];
  /** A name suffix's column (`Jr.`), put after the name its parts make. */
  suffix?: readonly string[];
  last?: readonly string[];
  /** Email columns: the first non-empty one fills `email`. */
  email: readonly string[];
  /** Phone columns: the first one holding a usable number fills `phonenumber` (main, mobile, others). */
  phone: readonly string[];
  /** Columns naming the row's country (a code or a name): where a national number is placed. */
  country: readonly string[];
  /** How the export writes several values in one cell (beside Google's ` ::: `, always read). */
  multiValue?: readonly string[];
  /**
   * The order of the export's slash dates when a column's own values leave it open (`4/12/1985`):
   * only for an export that writes one order whatever the user's locale.
   */
  dateOrder?: DateOrder;
  /**
   * The export is JSON, one object a line: the first object's keys are its header (and only a
   * JSON file is matched against it). Values become cells: `null` no value, arrays joined by `, `.
   */
  json?: {
    /** Keys whose object holds fields of their own (custom fields): each becomes a column by its name. */
    nested: readonly string[];
  };
}

export const EXPORT_PROFILES: readonly ExportProfile[] = [
  // Before HubSpot: a Zoho export also has `Record Id`, `First Name`, `Last Name` and `Email`.
  {
    id: 'zoho-crm',
    label: 'Zoho CRM contacts export',
    signatures: [
      ['Record Id', 'Contact Owner.id'],
      ['Record Id', 'Contact Owner', 'Created Time'],
    ],
    key: ['Record Id'],
    first: ['First Name'],
    last: ['Last Name'],
    email: ['Email', 'Secondary Email'],
    phone: ['Phone', 'Mobile'],
    country: ['Mailing Country'],
  },
  {
    id: 'hubspot',
    label: 'HubSpot contacts export',
    signatures: [['Record ID', 'First Name', 'Last Name', 'Email']],
    key: ['Record ID'],
    first: ['First Name'],
    last: ['Last Name'],
    email: ['Email'],
    phone: ['Phone Number', 'Mobile Phone Number', 'WhatsApp Phone Number'],
    country: ['Country/Region'],
  },
  {
    id: 'salesforce-report',
    label: 'Salesforce report (details only) export',
    signatures: [
      ['Contact ID', 'Mailing Country'],
      ['Contact ID', 'Account Name'],
      ['Contact ID', 'Contact Owner'],
    ],
    key: ['Contact ID'],
    first: ['First Name'],
    last: ['Last Name'],
    email: ['Email'],
    phone: ['Phone', 'Mobile'],
    country: ['Mailing Country'],
  },
  {
    id: 'salesforce-dataloader',
    label: 'Salesforce Data Loader export',
    signatures: [
      ['Id', 'FirstName', 'LastName', 'MailingCountry'],
      ['Id', 'FirstName', 'LastName', 'AccountId'],
    ],
    key: ['Id'],
    first: ['FirstName'],
    last: ['LastName'],
    email: ['Email'],
    phone: ['Phone', 'MobilePhone'],
    country: ['MailingCountry'],
  },
  {
    id: 'mailchimp',
    label: 'Mailchimp audience export',
    signatures: [
      ['Email Address', 'EUID'],
      ['Email Address', 'LEID'],
      ['Email Address', 'MEMBER_RATING'],
    ],
    // Mailchimp's unique_email_id: stable for the audience member.
    key: ['EUID'],
    first: ['First Name'],
    last: ['Last Name'],
    email: ['Email Address'],
    phone: ['Phone Number'],
    country: ['CC'],
  },
  {
    id: 'google-contacts',
    label: 'Google Contacts (Google CSV) export',
    signatures: [['E-mail 1 - Value', 'Phone 1 - Value']],
    name: ['Name'],
    first: ['First Name', 'Given Name'],
    middle: ['Middle Name', 'Additional Name'],
    suffix: ['Name Suffix'],
    last: ['Last Name', 'Family Name'],
    email: ['E-mail 1 - Value', 'E-mail 2 - Value', 'E-mail 3 - Value'],
    phone: ['Phone 1 - Value', 'Phone 2 - Value', 'Phone 3 - Value', 'Phone 4 - Value', 'Phone 5 - Value'],
    country: ['Address 1 - Country', 'Address 2 - Country'],
    multiValue: [GOOGLE_MULTI_VALUE],
  },
  {
    id: 'outlook',
    label: 'Outlook contacts export',
    signatures: [
      ['E-mail Address', 'Business Country/Region'],
      ['E-mail Address', 'E-mail Display Name'],
    ],
    first: ['First Name'],
    middle: ['Middle Name'],
    last: ['Last Name'],
    suffix: ['Suffix'],
    email: ['E-mail Address', 'E-mail 2 Address', 'E-mail 3 Address'],
    phone: [
      'Primary Phone',
      'Mobile Phone',
      'Business Phone',
      'Home Phone',
      'Company Main Phone',
      'Other Phone',
      'Business Phone 2',
      'Home Phone 2',
      'Car Phone',
    ],
    country: ['Business Country/Region', 'Home Country/Region', 'Other Country/Region'],
    // Outlook's contact dates are M/D/YYYY (EVIDENCE.md, Outlook: "dates otherwise M/D/YYYY").
    dateOrder: 'mdy',
  },
  {
    id: 'shopify',
    label: 'Shopify customers export',
    signatures: [
      ['Customer ID', 'Default Address Country Code'],
      ['Customer ID', 'Accepts Email Marketing'],
    ],
    key: ['Customer ID'],
    first: ['First Name'],
    last: ['Last Name'],
    email: ['Email'],
    phone: ['Phone', 'Default Address Phone'],
    country: ['Default Address Country Code'],
  },
  {
    id: 'stripe',
    label: 'Stripe customers export',
    signatures: [['id', 'Email', 'Created (UTC)']],
    key: ['id'],
    name: ['Name'],
    email: ['Email'],
    phone: [],
    country: [],
  },
  {
    id: 'pipedrive',
    label: 'Pipedrive people export',
    signatures: [['Person - ID', 'Person - Name']],
    key: ['Person - ID'],
    name: ['Person - Name'],
    first: ['Person - First name'],
    last: ['Person - Last name'],
    email: ['Person - Email - Work', 'Person - Email - Home', 'Person - Email - Other'],
    phone: [
      'Person - Phone - Work',
      'Person - Phone - Mobile',
      'Person - Phone - Home',
      'Person - Phone - Other',
    ],
    country: ['Person - Country of Postal address'],
    multiValue: [', '],
  },
  {
    id: 'intercom',
    label: 'Intercom users export',
    signatures: [['User ID', 'Email', 'Web sessions', 'Unsubscribed from Emails']],
    key: ['User ID'],
    name: ['Name'],
    first: ['First name'],
    last: ['Last name'],
    email: ['Email'],
    phone: ['Phone'],
    country: ['Country'],
  },
  {
    // The Contacts.csv of Freshsales' account data export (Admin Settings > Export data): sentence
    // case labels, `Emails` holding every address of the contact, phones written `'+1...`.
    id: 'freshsales',
    label: 'Freshsales (Freshworks CRM) contacts export',
    signatures: [
      ['Id', 'Emails', 'Sales owner'],
      ['Id', 'Work email', 'Sales owner'],
      // Without the owner (a column people drop before they move): `Emails`, plural, still tells.
      ['Id', 'Last name', 'Emails'],
    ],
    key: ['Id'],
    first: ['First name'],
    last: ['Last name'],
    email: ['Emails', 'Work email'],
    // The one public reader of this file takes the mobile number first, the work number after it.
    phone: ['Mobile', 'Work'],
    country: ['Country'],
    multiValue: [';'],
  },
  {
    // Zendesk Support's JSON export of users: one user object a line, as the Users API writes it.
    // Zendesk's own numeric id keys the contact: `external_id` (the account's own id) is often
    // null; --map external_id=external_id chooses it.
    id: 'zendesk',
    label: 'Zendesk users export (JSON)',
    signatures: [
      ['id', 'email', 'user_fields'],
      ['id', 'email', 'role', 'ticket_restriction'],
    ],
    key: ['id'],
    name: ['name'],
    email: ['email'],
    phone: ['phone'],
    country: [],
    json: { nested: ['user_fields'] },
  },
  {
    id: 'klaviyo',
    label: 'Klaviyo profiles export',
    signatures: [['Email', 'Klaviyo ID']],
    key: ['Klaviyo ID'],
    first: ['First Name'],
    last: ['Last Name'],
    email: ['Email'],
    phone: ['Phone Number'],
    country: ['Country'],
  },
];

/**
 * The export whose signature the header carries (the first that matches), or undefined. A JSON
 * export's header is its first object's keys: `json` matches only the exports written as JSON.
 */
export function recogniseExport(header: readonly string[], json = false): ExportProfile | undefined {
  const present = new Set(header.map(normalizeHeader));
  return EXPORT_PROFILES.find(
    (profile) =>
      (profile.json !== undefined) === json &&
      profile.signatures.some((signature) => signature.every((h) => present.has(normalizeHeader(h)))),
  );
}

/**
 * For a header no export matched: the one a signature of three or more columns lacks a single
 * column of (an export someone trimmed or renamed a column in), as a note that says so. Only when
 * a column that is the export's own (not a generic name such as `Email` or `ID`) is there:
 * `Email,First Name,Last Name` is anyone's file, not a HubSpot export short of its `Record ID`.
 */
export function nearlyRecognised(
  header: readonly string[],
  generic: (normalised: string) => boolean,
  json = false,
): PlanNote | undefined {
  const present = new Set(header.map(normalizeHeader));
  for (const profile of EXPORT_PROFILES) {
    if ((profile.json !== undefined) !== json) continue;
    for (const signature of profile.signatures) {
      const names = signature.map(normalizeHeader);
      const missing = signature.filter((_, k) => !present.has(names[k]!));
      const own = names.some((h) => present.has(h) && !generic(h));
      if (signature.length >= 3 && missing.length === 1 && own) {
        return {
          code: 'export_nearly_recognised',
          message: json
            ? `The first record looks like ${article(profile.label)} ${profile.label} but has no "${missing[0]}" key, so its records are ` +
              "read by the contract's field names (docs/import.md lists what each export is recognised by)"
            : `The header looks like ${article(profile.label)} ${profile.label} but has no "${missing[0]}" column, so it is read by the ` +
              'generic column names: check the Columns line (docs/import.md lists what each export is recognised by)',
          export: profile.label,
          missing: missing[0]!,
          json,
        };
      }
    }
  }
  return undefined;
}

/** `a` or `an`, for the export's name. */
export const article = (word: string) => (/^[AEIOU]/i.test(word) ? 'an' : 'a');
