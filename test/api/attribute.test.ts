import { describe, expect, it } from 'vitest';
import { attributeTextSchemas, attributeValueSchemas } from '../../src/api/attribute.js';

describe('attribute value coercion', () => {
  it('number on the wire: JSON numbers only, as production', () => {
    expect(attributeValueSchemas.number.parse(3)).toBe(3);
    const text = attributeValueSchemas.number.safeParse('5');
    expect(text.success).toBe(false);
    expect(text.error?.issues[0]?.message).toBe('Expected number, received string');
  });

  it('number from text (CSV, --attr): numeric strings converted, what overflows refused', () => {
    expect(attributeTextSchemas.number.parse(' 42.5 ')).toBe(42.5);
    expect(attributeTextSchemas.number.parse(3)).toBe(3);
    expect(attributeTextSchemas.number.safeParse('1e400').success).toBe(false);
    expect(attributeTextSchemas.number.safeParse('twelve').success).toBe(false);
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
