import { describe, expect, it } from 'vitest';
import { attributeValueSchemas } from '../../src/api/attribute.js';

describe('attribute value coercion', () => {
  it('number: takes finite numbers and numeric strings, refuses what overflows', () => {
    expect(attributeValueSchemas.number.parse(' 42.5 ')).toBe(42.5);
    expect(attributeValueSchemas.number.parse(3)).toBe(3);
    expect(attributeValueSchemas.number.safeParse('1e400').success).toBe(false);
    expect(attributeValueSchemas.number.safeParse('twelve').success).toBe(false);
  });

  it('date: keeps a date, stores a date-time as UTC, and reads one without an offset as UTC', () => {
    expect(attributeValueSchemas.date.parse('2024-05-31')).toBe('2024-05-31');
    expect(attributeValueSchemas.date.parse('2024-05-31T10:00:00+02:00')).toBe('2024-05-31T08:00:00.000Z');
    // Under another zone too: the stored value must not depend on the importing machine.
    const zone = process.env.TZ;
    process.env.TZ = 'America/New_York';
    try {
      expect(attributeValueSchemas.date.parse('2024-05-31T10:00:00')).toBe('2024-05-31T10:00:00.000Z');
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
    expect(attributeValueSchemas.date.safeParse('yesterday').success).toBe(false);
  });

  it('boolean and text', () => {
    expect(attributeValueSchemas.boolean.parse('TRUE')).toBe(true);
    expect(attributeValueSchemas.boolean.parse(0)).toBe(false);
    expect(attributeValueSchemas.text.parse(7)).toBe('7');
  });
});
