// The most text one record of an input may take, for every format. A contact is far smaller (a
// request body is at most 1 MiB): a record past this is a quote or a string left open, a card
// without its end, or a hostile file, and a reader stops holding it there rather than fill memory.

/** Characters of one record (a CSV row, a JSON element, a vCard's properties, a sheet's row). */
export const MAX_RECORD_CHARS = 16 * 1024 * 1024;

/** `16 MiB` for whole mebibytes, else the count (a limit lowered by a test or a caller). */
export function sizeText(chars: number, unit = 'characters'): string {
  const mib = chars / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${chars} ${unit}`;
}
