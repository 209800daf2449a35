// How an import reads its input, in one line: the first thing `contacts import` (and `template
// --from`) says. For a table, the export recognised and what fills each field, in the order the
// columns are tried; for vCards, how their properties fill the fields.
import { targetKey } from '../../importer/column-targets.js';
import type { ColumnMapping } from '../../importer/mapping.js';
import type { ImportPlan } from '../../importer/plan.js';
import { sourceCountries } from '../../importer/regions.js';

/** The plan's line: undefined for records read by the contract's field names (JSON, NDJSON). */
export function planSummary(plan: ImportPlan): string | undefined {
  // A vCard's columns are the importer's own: say how the cards are read instead.
  if (plan.reading === 'vcard') {
    return (
      'Reading vCards: UID -> external_id (else the preferred EMAIL, else the TEL); FN, else N -> name; ' +
      'EMAIL (preferred) -> email; TEL (preferred, else mobile, else first; the next where it cannot be read) -> phonenumber; ' +
      'ADR country -> phone country'
    );
  }
  return plan.mapping && summarizeMapping(plan.mapping);
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
  // By target (`targetKey`), in column order.
  const byTarget = new Map<string, number[]>();
  mapping.columns.forEach((targets, i) => {
    for (const t of targets) {
      const key = targetKey(t);
      byTarget.set(key, [...(byTarget.get(key) ?? []), i]);
    }
  });
  const list = (cols: number[], joiner = ', ') => cols.map(name).join(joiner);
  if (mapping.keyFromEmail) parts.push(`no id column: external_id = ${mapping.keyFromEmail}, in lower case`);
  else if (byTarget.has('external_id')) parts.push(`${list(byTarget.get('external_id')!)} -> external_id`);
  const partsOfName = [
    ...(byTarget.get('first_name') ?? []),
    ...(byTarget.get('middle_name') ?? []),
    ...(byTarget.get('last_name') ?? []),
    ...(byTarget.get('name_suffix') ?? []),
  ];
  // The parts of a name stand in where the full name is blank (or is an email address).
  if (byTarget.has('name'))
    parts.push(
      `${list(byTarget.get('name')!)}${partsOfName.length > 0 ? `, else ${list(partsOfName, ' + ')}` : ''} -> name`,
    );
  else if (partsOfName.length > 0) parts.push(`${list(partsOfName, ' + ')} -> name`);
  if (mapping.emailColumns.length > 0) parts.push(`${list(mapping.emailColumns)} -> email`);
  if (mapping.phoneColumns.length > 0) {
    parts.push(
      `${list(mapping.phoneColumns)} -> phonenumber${mapping.phoneColumns.length > 1 ? ' (first usable)' : ''}`,
    );
  }
  // Where a number's country comes from matters only to a file with phone numbers.
  if (mapping.phoneColumns.length > 0) {
    if (mapping.countryColumns.length > 0) parts.push(`${list(mapping.countryColumns)} -> phone country`);
    for (const source of mapping.regionColumns ?? [])
      parts.push(`${source.label} -> phone country (${sourceCountries(source)})`);
  }
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
