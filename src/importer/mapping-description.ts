// The mapping as `Header -> target` lines, one a column, as an import's `start` event gives it;
// and the record of it the resume checkpoint keeps, by the targets' keys, never these words.
import { type ColumnTarget, describeTarget, targetKey } from './column-targets.js';
import type { ColumnMapping } from './mapping.js';
import { sourceCountries } from './regions.js';

/** `Header -> target` lines, for a verbose run or a dry run. */
export function describeMapping(mapping: ColumnMapping): string[] {
  const rank = (i: number, target: ColumnTarget) => {
    const key = targetKey(target);
    const list =
      key === 'phonenumber' ? mapping.phoneColumns : key === 'email' ? mapping.emailColumns : undefined;
    return list && list.length > 1 ? ` (${list.indexOf(i) + 1} of ${list.length})` : '';
  };
  const lines = mapping.columns.flatMap((targets, i) =>
    targets.length > 0
      ? [
          `${mapping.header[i]!.trim() || `(column ${i + 1})`} -> ${targets.map((t) => describeTarget(t) + rank(i, t)).join(', ')}`,
        ]
      : [],
  );
  if (mapping.phoneColumns.length === 0) return lines;
  for (const i of mapping.countryColumns) {
    if (!mapping.columns[i]!.some((t) => t.kind === 'country'))
      lines.push(`${mapping.header[i]!.trim()} -> country (places national phone numbers)`);
  }
  for (const source of mapping.regionColumns ?? [])
    lines.push(`${source.label} -> country (${sourceCountries(source)}; places national phone numbers)`);
  return lines;
}

/**
 * What a resume must find again of a mapping: each column's header and its targets by key
 * (`email`, `attr.plan`, `first_name`), the order phone and email columns are tried in, and the
 * country columns, and those that place phones by address or time zone. Rewording a target
 * changes none of it.
 */
export function mappingRecord(mapping: ColumnMapping): {
  columns: string[][];
  phoneColumns: number[];
  emailColumns: number[];
  countryColumns: number[];
  placing?: string[];
} {
  const placing = (mapping.regionColumns ?? []).map((source) => source.label);
  return {
    columns: mapping.columns.map((targets, i) => [mapping.header[i]!.trim(), ...targets.map(targetKey)]),
    phoneColumns: mapping.phoneColumns,
    emailColumns: mapping.emailColumns,
    countryColumns: mapping.countryColumns,
    // The columns that place phone numbers by address or time zone (`State + Zip`), where any do.
    ...(placing.length > 0 ? { placing } : {}),
  };
}
