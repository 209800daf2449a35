// The exports of the systems people leave, as data: each real export's header (the fixtures of
// test/fixtures/exports) is recognised as its system's, and a generic file as none.
import { readdirSync, readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { EXPORT_PROFILES, nearlyRecognised, recogniseExport } from '../../src/importer/exports.js';

const FIXTURES = new URL('../fixtures/exports/', import.meta.url);
const expected = JSON.parse(readFileSync(new URL('expected.json', FIXTURES), 'utf8')).fixtures as Record<
  string,
  { system: string }
>;

function headerOf(file: string): { header: string[]; json: boolean } {
  const text = readFileSync(new URL(file, FIXTURES), 'utf8').replace(/^\uFEFF/, '');
  if (file.endsWith('.json')) return { header: Object.keys(JSON.parse(text.split('\n')[0]!)), json: true };
  const rows = parse(text, {
    to_line: 1,
    relax_column_count: true,
    delimiter: [',', ';', '\t'],
  }) as string[][];
  return { header: rows[0]!, json: false };
}

describe('recogniseExport', () => {
  const files = readdirSync(FIXTURES).filter((f) => /\.(csv|json)$/.test(f) && f !== 'expected.json');

  it('has a fixture for every file the expectations name', () => {
    expect(files.sort()).toEqual(Object.keys(expected).sort());
  });

  it.each(files)('knows %s by its header', (file) => {
    const { header, json } = headerOf(file);
    const profile = recogniseExport(header, json);
    expect(profile?.id, file).toMatch(new RegExp(`^${expected[file]!.system.split('-')[0]}`));
  });

  it('knows none in a generic header, and keeps JSON exports for JSON files', () => {
    expect(recogniseExport(['Email', 'First Name', 'Last Name', 'Phone'])).toBeUndefined();
    const zendesk = EXPORT_PROFILES.find((p) => p.json)!;
    expect(recogniseExport(zendesk.signatures[0]!, false)).toBeUndefined();
    expect(recogniseExport(zendesk.signatures[0]!, true)?.id).toBe(zendesk.id);
  });

  it('compares headers as normalised: case, spacing and punctuation aside', () => {
    const hubspot = EXPORT_PROFILES.find((p) => p.id === 'hubspot')!;
    const shouted = hubspot.signatures[0]!.map((h) => `  ${h.toUpperCase()} `);
    expect(recogniseExport(shouted)?.id).toBe('hubspot');
  });

  it('every profile has an id and label of its own, and a column to read an email from', () => {
    expect(new Set(EXPORT_PROFILES.map((p) => p.id)).size).toBe(EXPORT_PROFILES.length);
    expect(new Set(EXPORT_PROFILES.map((p) => p.label)).size).toBe(EXPORT_PROFILES.length);
    for (const profile of EXPORT_PROFILES) expect(profile.email.length, profile.id).toBeGreaterThan(0);
  });
});

describe('nearlyRecognised', () => {
  const generic = (h: string) =>
    ['email', 'id', 'firstname', 'lastname', 'name'].includes(h.replace(/[^a-z]/g, ''));

  it('names the one column a long signature lacks, when a column of the export’s own is there', () => {
    const signature = EXPORT_PROFILES.flatMap((p) => p.signatures.map((s) => ({ p, s }))).find(
      ({ s }) => s.length >= 3,
    )!;
    const [missing, ...rest] = signature.s;
    const note = nearlyRecognised([...rest, 'Email'], generic);
    expect(note).toMatchObject({
      code: 'export_nearly_recognised',
      export: signature.p.label,
      missing,
      json: false,
    });
    expect(note?.message).toContain(`${signature.p.label} but has no "${missing}" column`);
  });

  it('says nothing of a file of generic columns, or one that matches', () => {
    expect(nearlyRecognised(['Email', 'First Name', 'Last Name'], generic)).toBeUndefined();
    const hubspot = EXPORT_PROFILES.find((p) => p.id === 'hubspot')!;
    expect(nearlyRecognised([...hubspot.signatures[0]!], generic)).toBeUndefined();
  });
});
