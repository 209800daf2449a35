// The first line of an import: how it reads its input.
import { describe, expect, it } from 'vitest';
import { planSummary, summarizeMapping } from '../../../src/cli/output/mapping-summary.js';
import { resolveMapping } from '../../../src/importer/mapping.js';
import type { ImportPlan } from '../../../src/importer/plan.js';

const plan = (over: Partial<ImportPlan>): ImportPlan => ({
  reading: 'records',
  format: 'ndjson',
  header: undefined,
  mapping: undefined,
  key: { from: 'record' },
  dateColumns: [],
  timeZone: undefined,
  dateOrder: undefined,
  defaultCountry: undefined,
  strict: false,
  emptyStrings: false,
  watchLocalTimes: false,
  ...over,
});

describe('the summary of a plan', () => {
  it("names what fills each field, the name's parts joined and the phones in the order tried", () => {
    const mapping = resolveMapping({
      header: ['ID', 'First Name', 'Last Name', 'Phone', 'Mobile', 'Plan'],
      definitions: [{ name: 'plan', type: 'text', label: 'Plan', description: null, archived: false }],
    });
    expect(summarizeMapping(mapping)).toBe(
      'Columns: ID -> external_id; First Name + Last Name -> name; Mobile, Phone -> phonenumber (first usable); Plan -> attr.plan',
    );
    expect(planSummary(plan({ reading: 'columns', format: 'csv', mapping }))).toBe(summarizeMapping(mapping));
  });

  it("says how a vCard's properties fill the fields, and nothing for records", () => {
    expect(planSummary(plan({ reading: 'vcard', format: 'vcard' }))).toMatch(
      /^Reading vCards: UID -> external_id/,
    );
    expect(planSummary(plan({}))).toBeUndefined();
  });
});
