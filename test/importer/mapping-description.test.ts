// The mapping as `Header -> target` lines, as a start event gives it; the record a checkpoint keeps.
import { describe, expect, it } from 'vitest';
import { resolveMapping } from '../../src/importer/mapping.js';
import { describeMapping, mappingRecord } from '../../src/importer/mapping-description.js';

describe('describeMapping', () => {
  it('gives each column what it fills, the rank of an ordered column, and the country columns', () => {
    const mapping = resolveMapping({
      header: ['ID', 'First Name', 'Last Name', 'Phone', 'Mobile', 'Country'],
      definitions: [],
    });
    expect(describeMapping(mapping)).toEqual([
      'ID -> external_id',
      'First Name -> name (first part)',
      'Last Name -> name (last part)',
      // A mobile is tried first.
      'Phone -> phonenumber (2 of 2)',
      'Mobile -> phonenumber (1 of 2)',
      'Country -> country (places national phone numbers)',
    ]);
  });
});

describe('mappingRecord', () => {
  it("keeps each column's targets by key and the order columns are tried in, not their words", () => {
    const mapping = resolveMapping({
      header: ['ID', 'First Name', 'Last Name', 'Phone', 'Mobile', 'Country'],
      definitions: [],
    });
    expect(mappingRecord(mapping)).toEqual({
      columns: [
        ['ID', 'external_id'],
        ['First Name', 'first_name'],
        ['Last Name', 'last_name'],
        ['Phone', 'phonenumber'],
        ['Mobile', 'phonenumber'],
        // Read as the row's country, beside the columns (countryColumns).
        ['Country'],
      ],
      phoneColumns: [4, 3],
      emailColumns: [],
      countryColumns: [5],
    });
  });
});
