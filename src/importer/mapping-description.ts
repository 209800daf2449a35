// The mapping in words: one `Header -> target` line a column (the resume checkpoint keeps them
// as the mapping it must find again), and the one-line summary an import starts with.
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

/**
 * The mapping in one line, for the first line of an import and a dry run: which export was
 * recognised, and what fills each field (`Phone, Mobile -> phonenumber` in the order tried).
 */
export function summarizeMapping(mapping: ColumnMapping): string {
  const name = (i: number) =>
    (mapping.header[i]!.trim() || `(column ${i + 1})`) +
    (mapping.byValues.includes(i) ? ' (by its values)' : '');
  const parts: string[] = [];
  const byTarget = new Map<string, number[]>();
  mapping.columns.forEach((targets, i) => {
    for (const t of targets) {
      const key = describeTarget(t);
      byTarget.set(key, [...(byTarget.get(key) ?? []), i]);
    }
  });
  const list = (cols: number[], joiner = ', ') => cols.map(name).join(joiner);
  if (mapping.keyFromEmail) parts.push(`no id column: external_id = ${mapping.keyFromEmail}, in lower case`);
  else if (byTarget.has('external_id')) parts.push(`${list(byTarget.get('external_id')!)} -> external_id`);
  if (byTarget.has('name')) parts.push(`${list(byTarget.get('name')!)} -> name`);
  else {
    const partsOfName = [
      ...(byTarget.get('name (first part)') ?? []),
      ...(byTarget.get('name (middle part)') ?? []),
      ...(byTarget.get('name (last part)') ?? []),
    ];
    if (partsOfName.length > 0) parts.push(`${list(partsOfName, ' + ')} -> name`);
  }
  if (mapping.emailColumns.length > 0) parts.push(`${list(mapping.emailColumns)} -> email`);
  if (mapping.phoneColumns.length > 0) {
    parts.push(
      `${list(mapping.phoneColumns)} -> phonenumber${mapping.phoneColumns.length > 1 ? ' (first usable)' : ''}`,
    );
  }
  if (mapping.countryColumns.length > 0) parts.push(`${list(mapping.countryColumns)} -> phone country`);
  for (const [target, cols] of byTarget) {
    if (target.startsWith('attr.')) parts.push(`${list(cols)} -> ${target}`);
  }
  const what = mapping.system
    ? `Recognised the ${mapping.system.label}`
    : mapping.exact
      ? 'Recognised an export of this tool (cells read exactly as written)'
      : 'Columns';
  return `${what}: ${parts.join('; ')}`;
}
