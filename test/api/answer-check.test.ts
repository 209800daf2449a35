// The JSON Schema reader the client checks answers with: each keyword it knows, the path of
// each issue, and the defaults it fills in.
import { describe, expect, it } from 'vitest';
import { checkJson, type JsonSchema, MAX_ISSUES } from '../../src/api/answer-check.js';

const person: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    age: { type: ['integer', 'null'], minimum: 0, maximum: 150 },
    kind: { type: 'string', enum: ['a', 'b'] },
    tags: { default: [], type: 'array', items: { type: 'string' } },
    extra: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: { type: 'number' } },
  },
  required: ['id', 'age'],
  additionalProperties: {},
};

const issues = (value: unknown, schema: JsonSchema = person) => {
  const result = checkJson(value, schema);
  return result.ok ? [] : result.issues;
};

describe('checkJson', () => {
  it('passes a value that meets the schema, unknown fields kept and defaults filled in', () => {
    expect(checkJson({ id: 'x', age: 3, kind: 'a', more: true }, person)).toEqual({
      ok: true,
      value: { id: 'x', age: 3, kind: 'a', more: true, tags: [] },
    });
    expect(checkJson({ id: 'x', age: null, tags: ['t'], extra: { n: 1.5 } }, person).ok).toBe(true);
  });

  it('fills each default with its own copy', () => {
    const a = checkJson<{ tags: string[] }>({ id: 'a', age: 1 }, person);
    const b = checkJson<{ tags: string[] }>({ id: 'b', age: 1 }, person);
    if (!a.ok || !b.ok) throw new Error('expected both to pass');
    a.value.tags.push('changed');
    expect(b.value.tags).toEqual([]);
  });

  it('names each field that breaks it by its dotted path', () => {
    expect(issues({ id: 1, age: 2.5, tags: ['ok', 7], extra: { n: 'one' } })).toEqual([
      { field: 'id', message: 'expected string, received number' },
      { field: 'age', message: 'expected integer or null, received number' },
      { field: 'tags.1', message: 'expected string, received number' },
      { field: 'extra.n', message: 'expected number, received string' },
    ]);
  });

  it('says a required field is missing, and checks enums and bounds', () => {
    expect(issues({ age: -1, kind: 'c' })).toEqual([
      { field: 'id', message: 'expected string, received nothing' },
      { field: 'age', message: 'expected at least 0' },
      { field: 'kind', message: 'expected one of "a", "b"' },
    ]);
    expect(issues({ id: 'x', age: 151 })).toEqual([{ field: 'age', message: 'expected at most 150' }]);
  });

  it('names the body itself when the answer is of the wrong kind', () => {
    expect(issues([])).toEqual([{ field: '(body)', message: 'expected object, received array' }]);
    expect(issues(null)).toEqual([{ field: '(body)', message: 'expected object, received null' }]);
  });

  it('reads a whole number as a number, and integer as whole numbers only', () => {
    expect(checkJson(3, { type: 'number' }).ok).toBe(true);
    expect(checkJson(3, { type: 'integer' }).ok).toBe(true);
    expect(checkJson(3.1, { type: 'integer' }).ok).toBe(false);
  });

  it('names the first MAX_ISSUES issues of an answer broken everywhere', () => {
    const page = Array.from({ length: 500 }, () => ({ age: 'x' }));
    const result = checkJson(page, { type: 'array', items: person });
    expect(result.ok ? [] : result.issues).toHaveLength(MAX_ISSUES);
    expect(result.ok ? undefined : result.issues[0]).toEqual({
      field: '0.id',
      message: 'expected string, received nothing',
    });
  });

  it('refuses a number JSON cannot hold (1e400 parses as Infinity), and drops __proto__ keys', () => {
    expect(issues(JSON.parse('{"id":"x","age":null,"extra":{"n":1e400}}'))).toEqual([
      { field: 'extra.n', message: 'expected number, received Infinity' },
    ]);
    const parsed = JSON.parse('{"id":"x","age":1,"__proto__":{"polluted":true}}');
    const result = checkJson<object>(parsed, person);
    expect(result.ok && Object.hasOwn(result.value, '__proto__')).toBe(false);
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
  });
});
