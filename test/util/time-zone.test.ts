import { describe, expect, it } from 'vitest';
import {
  canonicalTimeZone,
  sameTimeZone,
  timeZoneName,
  zonedTimeToUtc,
  zoneOffset,
} from '../../src/util/time-zone.js';

/** The instant of a wall-clock time `YYYY-MM-DDTHH:MM[:SS]` in `zone`, as an ISO string. */
function utc(wall: string, zone: string): string {
  return new Date(zonedTimeToUtc(Date.parse(`${wall}Z`), zone)).toISOString();
}

describe('zonedTimeToUtc', () => {
  it('America/New_York: EST in winter, EDT in summer', () => {
    expect(utc('2024-01-15T12:00', 'America/New_York')).toBe('2024-01-15T17:00:00.000Z');
    expect(utc('2024-07-01T12:00', 'America/New_York')).toBe('2024-07-01T16:00:00.000Z');
  });

  it('America/New_York in March: the hour the clocks skip moves forward by the gap', () => {
    // 2024-03-10: 02:00 EST became 03:00 EDT (07:00Z).
    expect(utc('2024-03-10T01:59', 'America/New_York')).toBe('2024-03-10T06:59:00.000Z');
    expect(utc('2024-03-10T02:00', 'America/New_York')).toBe('2024-03-10T07:00:00.000Z');
    expect(utc('2024-03-10T02:30', 'America/New_York')).toBe('2024-03-10T07:30:00.000Z'); // 03:30 EDT
    expect(utc('2024-03-10T03:00', 'America/New_York')).toBe('2024-03-10T07:00:00.000Z');
    expect(utc('2024-03-10T03:30', 'America/New_York')).toBe('2024-03-10T07:30:00.000Z');
  });

  it('America/New_York in November: the hour shown twice is its earlier instant (EDT)', () => {
    // 2024-11-03: 02:00 EDT became 01:00 EST (06:00Z).
    expect(utc('2024-11-03T00:59', 'America/New_York')).toBe('2024-11-03T04:59:00.000Z');
    expect(utc('2024-11-03T01:00', 'America/New_York')).toBe('2024-11-03T05:00:00.000Z');
    expect(utc('2024-11-03T01:30', 'America/New_York')).toBe('2024-11-03T05:30:00.000Z');
    expect(utc('2024-11-03T01:59:59', 'America/New_York')).toBe('2024-11-03T05:59:59.000Z');
    expect(utc('2024-11-03T02:00', 'America/New_York')).toBe('2024-11-03T07:00:00.000Z');
  });

  it('Europe/London: GMT, BST, and both transitions', () => {
    expect(utc('2024-01-15T12:00', 'Europe/London')).toBe('2024-01-15T12:00:00.000Z');
    expect(utc('2024-07-15T12:00', 'Europe/London')).toBe('2024-07-15T11:00:00.000Z');
    // 2024-03-31 01:00 GMT became 02:00 BST: 01:30 does not exist and is 02:30 BST.
    expect(utc('2024-03-31T01:30', 'Europe/London')).toBe('2024-03-31T01:30:00.000Z');
    expect(utc('2024-03-31T02:30', 'Europe/London')).toBe('2024-03-31T01:30:00.000Z');
    // 2024-10-27 02:00 BST became 01:00 GMT: 01:30 is first BST (00:30Z), then GMT (01:30Z).
    expect(utc('2024-10-27T01:30', 'Europe/London')).toBe('2024-10-27T00:30:00.000Z');
    expect(utc('2024-10-27T02:30', 'Europe/London')).toBe('2024-10-27T02:30:00.000Z');
  });

  it('Asia/Kolkata: a half-hour offset and no DST', () => {
    expect(utc('2024-03-22T17:59', 'Asia/Kolkata')).toBe('2024-03-22T12:29:00.000Z');
    expect(utc('2024-01-01T00:15', 'Asia/Kolkata')).toBe('2023-12-31T18:45:00.000Z');
  });

  it('Australia/Sydney: summer time in January, the transitions in April and October', () => {
    expect(utc('2024-01-15T12:00', 'Australia/Sydney')).toBe('2024-01-15T01:00:00.000Z'); // AEDT +11
    expect(utc('2024-07-15T12:00', 'Australia/Sydney')).toBe('2024-07-15T02:00:00.000Z'); // AEST +10
    // 2024-04-07 03:00 AEDT became 02:00 AEST: 02:30 is first AEDT.
    expect(utc('2024-04-07T02:30', 'Australia/Sydney')).toBe('2024-04-06T15:30:00.000Z');
    // 2024-10-06 02:00 AEST became 03:00 AEDT: 02:30 does not exist and is 03:30 AEDT.
    expect(utc('2024-10-06T02:30', 'Australia/Sydney')).toBe('2024-10-05T16:30:00.000Z');
    expect(utc('2024-10-06T03:30', 'Australia/Sydney')).toBe('2024-10-05T16:30:00.000Z');
  });

  // Pacific/Easter and America/Godthab change their clocks late in the local day: a day's
  // offset must be taken from the day after next, not the next.
  it.each([
    'America/New_York',
    'Europe/London',
    'Asia/Kolkata',
    'Australia/Sydney',
    'Australia/Lord_Howe',
    'Pacific/Easter',
    'America/Godthab',
  ])(
    '%s: every quarter hour of 2024 shown by the clock reads back as the earliest instant showing it',
    (zone) => {
      const start = Date.UTC(2024, 0, 1);
      for (let t = start; t < Date.UTC(2025, 0, 1); t += 15 * 60_000) {
        const wall = t + zoneOffset(t, zone);
        const back = zonedTimeToUtc(wall, zone);
        // t itself, or, where the clocks went back, the instant an offset change earlier.
        if (back !== t) {
          expect(back, new Date(t).toISOString()).toBeLessThan(t);
          expect(back + zoneOffset(back, zone)).toBe(wall);
        }
      }
    },
  );

  it('keeps milliseconds, and UTC is the wall clock itself', () => {
    expect(utc('2024-07-01T12:00:00.250', 'America/New_York')).toBe('2024-07-01T16:00:00.250Z');
    expect(utc('2024-03-10T02:30', 'UTC')).toBe('2024-03-10T02:30:00.000Z');
    // Before 1970 too: the offset is whole seconds, the fraction kept.
    expect(utc('1960-01-01T00:00:00.500', 'America/New_York')).toBe('1960-01-01T05:00:00.500Z');
    // And on a day the clocks change (New York went to EDT at 02:00 on 24 April 1960).
    expect(utc('1960-04-24T01:59:59.500', 'America/New_York')).toBe('1960-04-24T06:59:59.500Z');
    expect(utc('1960-04-24T03:00:00.500', 'America/New_York')).toBe('1960-04-24T07:00:00.500Z');
  });

  it('reads years below 100 as themselves', () => {
    const wall = new Date(0);
    wall.setUTCFullYear(50, 0, 1);
    expect(zonedTimeToUtc(wall.getTime(), 'UTC')).toBe(wall.getTime());
    // Tokyo's local mean time then: +9:18:59.
    expect(zoneOffset(wall.getTime(), 'Asia/Tokyo')).toBe((9 * 3600 + 18 * 60 + 59) * 1000);
  });
});

describe('time zone names', () => {
  it('knows IANA names in any case, links, and the names of UTC', () => {
    expect(canonicalTimeZone('america/new_york')).toBe('America/New_York');
    expect(canonicalTimeZone('Etc/UTC')).toBe('UTC');
    expect(canonicalTimeZone('utc')).toBe('UTC');
    expect(timeZoneName('america/new_york')).toBe('America/New_York');
    expect(timeZoneName(' Asia/Kolkata ')).toBe('Asia/Kolkata');
    expect(timeZoneName('europe/london')).toBe('Europe/London');
    expect(timeZoneName('US/Eastern')).toBe('US/Eastern');
    expect(timeZoneName('us/eastern')).toBe('America/New_York');
  });

  it('refuses unknown names and offsets', () => {
    expect(canonicalTimeZone('America/NewYork')).toBeUndefined();
    expect(canonicalTimeZone('Mars/Olympus_Mons')).toBeUndefined();
    expect(canonicalTimeZone('+05:00')).toBeUndefined();
    expect(canonicalTimeZone('')).toBeUndefined();
  });

  it('sameTimeZone: no zone is UTC, a link is its zone', () => {
    expect(sameTimeZone(undefined, 'UTC')).toBe(true);
    expect(sameTimeZone(undefined, 'Etc/UTC')).toBe(true);
    expect(sameTimeZone('US/Eastern', 'America/New_York')).toBe(true);
    expect(sameTimeZone('Asia/Kolkata', 'Asia/Calcutta')).toBe(true);
    expect(sameTimeZone(undefined, 'America/New_York')).toBe(false);
    expect(sameTimeZone('Europe/London', 'Europe/Dublin')).toBe(false);
  });
});
