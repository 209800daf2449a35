// `--map "Header=field"` and `--map-file FILE` (a saved mapping): the column overrides of
// `contacts import`, parsed, with the flags over the file's entries.
import { type ColumnTarget, type MapOverride, parseTargets } from '../importer/column-targets.js';
import { MappingError } from '../importer/errors.js';
import { normalizeHeader } from '../importer/mapping.js';

/**
 * Parse one `--map "Header=target"` (split at the last `=`, since a header may contain one); the
 * target may name several fields, comma-separated: `--map "E-mail 1 - Value=external_id,email"`.
 */
export function parseMapOption(value: string): MapOverride {
  const at = value.lastIndexOf('=');
  const header = at === -1 ? '' : value.slice(0, at).trim();
  const target = at === -1 ? '' : value.slice(at + 1).trim();
  if (!header || !target) {
    throw new MappingError(`Invalid --map "${value}": expected "Header=field", e.g. --map "E-mail=email"`);
  }
  return { header, targets: targetsAt(target, `Invalid --map "${value}"`) };
}

/** The targets a column is mapped to, an unknown one named with where it was written. */
function targetsAt(text: string, where: string): ColumnTarget[] {
  try {
    return parseTargets(text);
  } catch (error) {
    if (!(error instanceof MappingError)) throw error;
    throw new MappingError(`${where}: ${error.message}`, { detail: error.detail });
  }
}

/**
 * A saved mapping (`--map-file`): a JSON object of `"Header": "field"` entries, the same targets
 * as `--map`. `file` names it in messages.
 */
export function parseMapFile(text: string, file: string): MapOverride[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new MappingError(`--map-file ${file} is not valid JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new MappingError(
      `--map-file ${file} must be a JSON object of "Header": "field" entries, e.g. {"E-mail": "email"}`,
    );
  }
  return Object.entries(value).map(([header, target]) => {
    if (typeof target !== 'string' || !header.trim() || !target.trim()) {
      throw new MappingError(
        `--map-file ${file}: ${JSON.stringify(header)} must map to a field name (a string), e.g. "email" or "-"`,
      );
    }
    return { header: header.trim(), targets: targetsAt(target.trim(), `--map-file ${file}: "${header}"`) };
  });
}

/**
 * `--map-file` entries with `--map` flags over them: flags naming the same header replace the
 * file's entry, so a one-off tweak needs no edit of the saved mapping. Two flags for one header
 * add up (`--map "Email=external_id" --map "Email=email"` fills both), never drop the first.
 */
export function combineMaps(
  fromFile: readonly MapOverride[],
  fromFlags: readonly MapOverride[],
): MapOverride[] {
  const byHeader = new Map<string, MapOverride>();
  for (const o of fromFile) byHeader.set(normalizeHeader(o.header), o);
  const flagged = new Set<string>();
  for (const o of fromFlags) {
    const key = normalizeHeader(o.header);
    const earlier = flagged.has(key) ? byHeader.get(key) : undefined;
    byHeader.set(key, earlier ? { header: earlier.header, targets: [...earlier.targets, ...o.targets] } : o);
    flagged.add(key);
  }
  return [...byHeader.values()];
}
