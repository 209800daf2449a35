// The exports of the systems people leave, as data: how each one's header is recognised, and
// which of its columns hold the id, the name parts, the emails, the phones (in the order they
// fill `phonenumber`) and the country that places a national number. The evidence for every
// header is in test/fixtures/exports/EVIDENCE.md; a column named here was seen in a real export.
import { normalizeHeader } from './mapping.js';
import { GOOGLE_MULTI_VALUE } from './values.js';

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
  last?: readonly string[];
  /** Email columns: the first non-empty one fills `email`. */
  email: readonly string[];
  /** Phone columns: the first one holding a usable number fills `phonenumber` (main, mobile, others). */
  phone: readonly string[];
  /** Columns naming the row's country (a code or a name): where a national number is placed. */
  country: readonly string[];
  /** How the export writes several values in one cell (beside Google's ` ::: `, always read). */
  multiValue?: readonly string[];
}

export const EXPORT_PROFILES: readonly ExportProfile[] = [
  {
    id: 'hubspot',
    label: 'HubSpot contacts export',
    signatures: [['Record ID', 'First Name', 'Last Name', 'Email']],
    key: ['Record ID'],
    first: ['First Name'],
    last: ['Last Name'],
    email: ['Email'],
    phone: ['Phone Number', 'Mobile Phone Number'],
    country: ['Country/Region', 'Country'],
  },
  {
    id: 'salesforce-report',
    label: 'Salesforce report (details only) export',
    signatures: [
      ['Contact ID', 'Mailing Country'],
      ['Contact ID', 'Account Name'],
    ],
    key: ['Contact ID'],
    first: ['First Name'],
    last: ['Last Name'],
    email: ['Email'],
    phone: ['Phone', 'Mobile', 'Other Phone', 'Home Phone'],
    country: ['Mailing Country', 'Mailing Country Code'],
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
    phone: ['Phone', 'MobilePhone', 'OtherPhone', 'HomePhone'],
    country: ['MailingCountry', 'MailingCountryCode'],
  },
  {
    id: 'mailchimp',
    label: 'Mailchimp audience export',
    signatures: [
      ['Email Address', 'EUID'],
      ['Email Address', 'LEID'],
      ['Email Address', 'MEMBER_RATING'],
    ],
    key: ['EUID', 'LEID'],
    first: ['First Name'],
    last: ['Last Name'],
    email: ['Email Address'],
    phone: ['Phone Number'],
    country: ['CC'],
  },
  {
    id: 'google',
    label: 'Google Contacts (Google CSV) export',
    signatures: [['E-mail 1 - Value', 'Phone 1 - Value']],
    name: ['Name'],
    first: ['First Name', 'Given Name'],
    last: ['Last Name', 'Family Name'],
    email: ['E-mail 1 - Value', 'E-mail 2 - Value', 'E-mail 3 - Value'],
    phone: ['Phone 1 - Value', 'Phone 2 - Value', 'Phone 3 - Value', 'Phone 4 - Value'],
    country: ['Address 1 - Country', 'Address 2 - Country'],
    multiValue: [GOOGLE_MULTI_VALUE],
  },
  {
    id: 'outlook',
    label: 'Outlook (Windows) contacts export',
    signatures: [
      ['E-mail Address', 'E-mail Display Name'],
      ['E-mail Address', 'Business Country/Region'],
    ],
    first: ['First Name'],
    last: ['Last Name'],
    email: ['E-mail Address', 'E-mail 2 Address', 'E-mail 3 Address'],
    phone: [
      'Primary Phone',
      'Business Phone',
      'Mobile Phone',
      'Home Phone',
      'Business Phone 2',
      'Home Phone 2',
      'Other Phone',
      'Company Main Phone',
    ],
    country: ['Business Country/Region', 'Home Country/Region', 'Other Country/Region'],
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
    signatures: [
      ['id', 'Email', 'Created (UTC)', 'Delinquent'],
      ['id', 'Email', 'Created (UTC)', 'Description'],
    ],
    key: ['id'],
    name: ['Name'],
    email: ['Email'],
    phone: ['Phone'],
    country: ['Address Country', 'Shipping Address Country', 'Card Address Country'],
  },
  {
    id: 'pipedrive',
    label: 'Pipedrive people export',
    signatures: [['Person - ID', 'Person - Name']],
    key: ['Person - ID'],
    name: ['Person - Name'],
    first: ['Person - First name'],
    last: ['Person - Last name'],
    email: ['Person - Email - Work', 'Person - Email', 'Person - Email - Home', 'Person - Email - Other'],
    phone: [
      'Person - Phone - Work',
      'Person - Phone',
      'Person - Phone - Mobile',
      'Person - Phone - Home',
      'Person - Phone - Other',
    ],
    country: ['Person - Country', 'Organization - Address - Country'],
    multiValue: [', '],
  },
  {
    id: 'zoho',
    label: 'Zoho CRM contacts export',
    signatures: [
      ['Record Id', 'Contact Owner', 'Mailing Country'],
      ['Record Id', 'Contact Owner', 'Created Time'],
    ],
    key: ['Record Id'],
    first: ['First Name'],
    last: ['Last Name'],
    email: ['Email', 'Secondary Email'],
    phone: ['Phone', 'Mobile', 'Home Phone', 'Other Phone', 'Asst Phone'],
    country: ['Mailing Country', 'Other Country'],
  },
];

/** The export whose signature the header carries (the first that matches), or undefined. */
export function recogniseExport(header: readonly string[]): ExportProfile | undefined {
  const present = new Set(header.map(normalizeHeader));
  return EXPORT_PROFILES.find((profile) =>
    profile.signatures.some((signature) => signature.every((h) => present.has(normalizeHeader(h)))),
  );
}
