// The mapping as `Header -> target` lines, one a column: what the resume checkpoint keeps as the
// mapping it must find again, and what an import's `start` event gives.
import { type ColumnTarget, describeTarget, targetKey } from './column-targets.js';
import type { ColumnMapping } from './mapping.js';

/** `Header -> target` lines, for a verbose run or a dry run (and the checkpoint's settings). */
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
  for (const i of mapping.countryColumns) {
    if (!mapping.columns[i]!.some((t) => t.kind === 'country'))
      lines.push(`${mapping.header[i]!.trim()} -> country (places national phone numbers)`);
  }
  return lines;
}
