import { describe, expect, it } from 'vitest';
import { attributeTextSchemas, attributeValueSchemas } from '../../src/api/attribute.js';
import { createContactValidators } from '../../src/api/contact.js';
import { toIssues } from '../../src/api/envelope.js';

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

  it('number from text with separators: not read (1.200 is 1.2 as numeric text), the plain form to write named', () => {
    const message = (text: string) => attributeTextSchemas.number.safeParse(text).error?.issues[0]?.message;
    expect(message('1,200.00')).toBe('Expected a number: 1,200.00 has thousands separators; write 1200.00');
    expect(message('-12,345,678')).toBe(
      'Expected a number: -12,345,678 has thousands separators; write -12345678',
    );
    expect(message('1.200,50')).toBe('Expected a number: 1.200,50 has thousands separators; write 1200.50');
    expect(message('1.234.567')).toBe('Expected a number: 1.234.567 has thousands separators; write 1234567');
    expect(message('1 200,50')).toBe('Expected a number: 1 200,50 has thousands separators; write 1200.50');
    expect(message("1'200.50")).toBe("Expected a number: 1'200.50 has thousands separators; write 1200.50");
    expect(message('+1,200')).toBe(
      'Expected a number: +1,200 is 1200 where the comma groups thousands and 1.2 where it is the decimal mark; write 1200 or 1.2',
    );
    expect(message('3,5')).toBe('Expected a number: 3,5 has a decimal comma; write 3.5');
    expect(message('0,500')).toBe('Expected a number: 0,500 has a decimal comma; write 0.500');
    // Not a number with separators: a phone, an address, mixed marks, a group of two.
    for (const text of [
      '+34 912 345 678',
      '192.168.100.200.1',
      '1,200.000,5',
      '1,20.5',
      '012 345',
      'twelve',
    ]) {
      expect(message(text)).toBe('Expected a number or a numeric string');
    }
    // A dot is the decimal mark, as ever: 1.200 is 1.2.
    expect(attributeTextSchemas.number.parse('1.200')).toBe(1.2);
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

describe('custom attributes checked against the definitions', () => {
  const definition = (name: string, type: 'text' | 'number' | 'date', archived = false) => ({
    name,
    type,
    label: name,
    description: null,
    archived,
  });
  const { input } = createContactValidators([
    definition('plan', 'text'),
    definition('seats', 'number'),
    definition('renews', 'date'),
    definition('legacy', 'text', true),
    // A name Object.prototype also has: only the body's own key counts.
    definition('constructor', 'text'),
  ]);

  it('takes values already in their stored form as given, and coerces the rest into a copy', () => {
    const given = { plan: 'pro', seats: 3, legacy: null };
    const parsed = input.parse({ external_id: 'u1', custom_attributes: given });
    // Not copied key by key: the object given (the mock's request body) is the one checked.
    expect(parsed.custom_attributes).toBe(given);
    expect(given).toEqual({ plan: 'pro', seats: 3, legacy: null });
    const coerced = { plan: 7, renews: '2024-05-31T10:00:00+02:00' };
    expect(input.parse({ external_id: 'u1', custom_attributes: coerced }).custom_attributes).toEqual({
      plan: '7',
      renews: '2024-05-31T08:00:00.000Z',
    });
    // The caller's object is left as it was.
    expect(coerced).toEqual({ plan: 7, renews: '2024-05-31T10:00:00+02:00' });
    expect(input.parse({ external_id: 'u1', custom_attributes: {} }).custom_attributes).toEqual({});
    expect(
      input.parse({ external_id: 'u1', custom_attributes: { constructor: 'x' } }).custom_attributes,
    ).toEqual({
      constructor: 'x',
    });
  });

  it('names every key it refuses, in the order given: unknown, archived, a wrong type, not own', () => {
    const body = JSON.parse(
      '{"external_id": "u1", "custom_attributes": {"tier": 1, "legacy": "x", "seats": "5", "__proto__": {}, "plan": "ok"}}',
    );
    const result = input.safeParse(body);
    expect(result.success).toBe(false);
    expect(toIssues(result.error!)).toEqual([
      { field: 'custom_attributes.tier', message: 'Unknown custom attribute: define it first' },
      { field: 'custom_attributes.legacy', message: 'Custom attribute is archived: only null is accepted' },
      { field: 'custom_attributes.seats', message: 'Expected number, received string' },
      { field: 'custom_attributes.__proto__', message: 'Unknown custom attribute: define it first' },
    ]);
    expect(toIssues(input.safeParse({ external_id: 'u1', custom_attributes: [] }).error!)).toEqual([
      { field: 'custom_attributes', message: 'Expected an object of attribute names to values' },
    ]);
  });
});
