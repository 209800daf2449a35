// The mapping as `Header -> target` lines: what a checkpoint keeps and a start event gives.
import { describe, expect, it } from 'vitest';
import { resolveMapping } from '../../src/importer/mapping.js';
import { describeMapping } from '../../src/importer/mapping-description.js';

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
