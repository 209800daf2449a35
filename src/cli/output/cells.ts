// How one value reads in a CSV cell or a table cell, shared by both.

/** A value as CSV text: null and undefined empty, objects as JSON. */
export function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Unix seconds as an ISO 8601 instant without milliseconds (the API has none). */
export function isoTime(seconds: number): string {
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? String(seconds) : date.toISOString().replace('.000Z', 'Z');
}
