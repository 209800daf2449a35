// Wall-clock times in an IANA time zone, with nothing but Intl: which zone a name is, and which
// instant a zone-less date-time written in that zone stands for (DST gaps and overlaps included).

const DAY_MS = 86_400_000;

// One formatter per zone: building one costs far more than using it, and imports use one zone.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, format);
  }
  return format;
}

/**
 * The zone's own name for `name` as Intl knows it (any case: `america/new_york` is
 * `America/New_York`; `UTC`, `Etc/UTC` and `GMT` are `UTC`), or undefined when it is no zone.
 * Offsets (`+05:00`) are refused: Intl takes them from Node 22 on, not on Node 20.
 */
export function canonicalTimeZone(name: string): string | undefined {
  const text = name.trim();
  if (!/^[A-Za-z]/.test(text)) return undefined;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: text }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/**
 * `name` as the user means it, in the case Intl spells it (`america/new_york` is
 * `America/New_York`; `us/eastern`, a link in lower case, is `America/New_York` too), or
 * undefined when it is no zone. A link keeps its own name (`Asia/Kolkata`
 * stays so, though the ICU of Node 20 calls it `Asia/Calcutta`).
 */
export function timeZoneName(name: string): string | undefined {
  const canonical = canonicalTimeZone(name);
  if (canonical === undefined) return undefined;
  const text = name.trim();
  const lower = text.toLowerCase();
  if (canonical.toLowerCase() === lower) return canonical;
  const known = Intl.supportedValuesOf('timeZone').find((zone) => zone.toLowerCase() === lower);
  // A link typed all in lower case (`us/eastern`) has no spelling to keep: its zone's is shown.
  return known ?? (text === lower ? canonical : text);
}

/** Whether two zone names (undefined: UTC) are one zone. */
export function sameTimeZone(a: string | undefined, b: string | undefined): boolean {
  const ca = a === undefined ? 'UTC' : canonicalTimeZone(a);
  const cb = b === undefined ? 'UTC' : canonicalTimeZone(b);
  return ca !== undefined && ca === cb;
}

/** The zone's offset from UTC at an instant, in milliseconds (wall clock minus UTC). */
export function zoneOffset(instant: number, zone: string): number {
  let year = 0;
  let month = 0;
  let day = 0;
  let hour = 0;
  let minute = 0;
  let second = 0;
  for (const part of formatter(zone).formatToParts(instant)) {
    const n = Number(part.value);
    if (part.type === 'year') year = n;
    else if (part.type === 'month') month = n;
    else if (part.type === 'day') day = n;
    else if (part.type === 'hour') hour = n;
    else if (part.type === 'minute') minute = n;
    else if (part.type === 'second') second = n;
  }
  const wall = new Date(0);
  // setUTCFullYear, not Date.UTC: that one reads years 0-99 as 1900-1999.
  wall.setUTCFullYear(year, month - 1, day);
  wall.setUTCHours(hour, minute, second, 0);
  return wall.getTime() - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant (ms since the epoch) of a wall-clock time in `zone`; `wall` is that time's fields
 * read as if they were UTC (`Date.UTC(2024, 2, 22, 17, 59)` for 2024-03-22 17:59). As Temporal's
 * 'compatible' disambiguation does: a time the clocks skipped (a DST gap) moves forward by the
 * gap (02:30 on the day New York springs forward is 03:30 EDT), and a time they showed twice
 * (the overlap when they fall back) is the earlier instant (01:30 EDT, not 01:30 EST).
 */
export function zonedTimeToUtc(wall: number, zone: string): number {
  // No zone changes its offset twice within a few days: the offsets a day either side are the
  // only ones the wall time can have.
  const before = zoneOffset(wall - DAY_MS, zone);
  const after = zoneOffset(wall + DAY_MS, zone);
  const early = wall - before;
  if (before === after) return early;
  const late = wall - after;
  const earlyShows = zoneOffset(early, zone) === before;
  const lateShows = zoneOffset(late, zone) === after;
  if (earlyShows && lateShows) return Math.min(early, late);
  if (lateShows) return late;
  // Shown by the offset before the change, or by neither (a gap): the offset before it moves a
  // skipped time forward by the gap's length.
  return early;
}
