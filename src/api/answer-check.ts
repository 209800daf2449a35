// The service's answers checked against the contract without loading zod: a reader of the few
// JSON Schema keywords the contract's answers use (answer-schemas.ts, generated from its zod
// schemas). Loading zod is most of a `contacts get`'s start-up; its answers need only this.
import type { Issue } from './envelope.js';

export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'object' | 'array';

/** The JSON Schema keywords this reader knows; test/api/answer-schemas.test.ts holds the schemas to them. */
export interface JsonSchema {
  type?: JsonType | readonly JsonType[];
  enum?: readonly unknown[];
  minimum?: number;
  maximum?: number;
  properties?: Readonly<Record<string, JsonSchema>>;
  required?: readonly string[];
  /** A schema every other property must meet; `{}` lets any through (the contract's records are open). */
  additionalProperties?: JsonSchema;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  /** What an absent property reads as. */
  default?: unknown;
}

export const JSON_SCHEMA_KEYWORDS: readonly string[] = [
  'type',
  'enum',
  'minimum',
  'maximum',
  'properties',
  'required',
  'additionalProperties',
  'propertyNames',
  'items',
  'default',
];

export type Checked<T> = { ok: true; value: T } | { ok: false; issues: Issue[] };

/** The issues a check names at most: the first ones say what is wrong; a broken page has thousands. */
export const MAX_ISSUES = 20;
export type AnswerCheck<T> = (body: unknown) => Checked<T>;

/**
 * Checks a parsed JSON value against a schema; each issue names its dotted path (the first
 * MAX_ISSUES). A value that passes is returned with absent properties set to their defaults, in
 * place (it is the caller's fresh parse); one that fails is left as it came, but for `__proto__`
 * keys, dropped wherever the schema reads an object (as zod drops them).
 */
export function checkJson<T>(value: unknown, schema: JsonSchema): Checked<T> {
  const walk: Walk = { path: [], issues: [], defaults: [] };
  check(value, schema, walk);
  if (walk.issues.length > 0) return { ok: false, issues: walk.issues };
  for (const [record, name, fill] of walk.defaults) record[name] = structuredClone(fill);
  return { ok: true, value: value as T };
}

/** A check under way: where it is, what it found, and the defaults to fill in if it passes. */
interface Walk {
  path: string[];
  issues: Issue[];
  defaults: [record: Record<string, unknown>, name: string, value: unknown][];
}

/** A JSON type, or what no type matches: `Infinity` (JSON's `1e400`), `undefined`. */
type Kind = JsonType | 'undefined' | 'Infinity' | '-Infinity' | 'NaN';

function kindOf(value: unknown): Kind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return String(value) as Kind;
    return Number.isInteger(value) ? 'integer' : 'number';
  }
  return typeof value as Kind;
}

function check(value: unknown, schema: JsonSchema, walk: Walk): void {
  if (walk.issues.length >= MAX_ISSUES) return;
  const kind = kindOf(value);
  if (schema.type !== undefined && !typeMatches(schema.type, kind)) {
    const expected = typeof schema.type === 'string' ? schema.type : schema.type.join(' or ');
    say(walk, `expected ${expected}, received ${kind === 'integer' ? 'number' : kind}`);
    return;
  }
  if (schema.enum && !schema.enum.includes(value)) {
    say(walk, `expected one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`);
    return;
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) {
      say(walk, `expected at least ${schema.minimum}`);
    } else if (schema.maximum !== undefined && value > schema.maximum) {
      say(walk, `expected at most ${schema.maximum}`);
    }
  } else if (kind === 'array' && schema.items) {
    const list = value as unknown[];
    for (let i = 0; i < list.length; i++) at(walk, String(i), list[i], schema.items);
  } else if (kind === 'object') {
    checkObject(value as Record<string, unknown>, schema, walk);
  }
}

/** Checks one part of a value, its key on the walk's path for as long (no path built per field). */
function at(walk: Walk, key: string, value: unknown, schema: JsonSchema): void {
  walk.path.push(key);
  check(value, schema, walk);
  walk.path.pop();
}

function typeMatches(type: JsonType | readonly JsonType[], kind: Kind): boolean {
  if (typeof type === 'string') return type === kind || (type === 'number' && kind === 'integer');
  for (const t of type) if (t === kind || (t === 'number' && kind === 'integer')) return true;
  return false;
}

function checkObject(record: Record<string, unknown>, schema: JsonSchema, walk: Walk): void {
  // JSON.parse makes `"__proto__"` an own key; copied into another object, it would set its prototype.
  if (Object.hasOwn(record, '__proto__')) Reflect.deleteProperty(record, '__proto__');
  const properties = schema.properties ?? NONE;
  for (const name in properties) {
    const property = properties[name] as JsonSchema;
    if (Object.hasOwn(record, name) && record[name] !== undefined) {
      at(walk, name, record[name], property);
    } else if (property.default !== undefined) {
      walk.defaults.push([record, name, property.default]);
    } else if (schema.required?.includes(name)) {
      const expected =
        typeof property.type === 'string' ? property.type : (property.type?.join(' or ') ?? 'a value');
      walk.path.push(name);
      say(walk, `expected ${expected}, received nothing`);
      walk.path.pop();
    }
  }
  const { additionalProperties: other, propertyNames: names } = schema;
  const checkOther = other !== undefined && !isAny(other);
  if (!checkOther && !names) return;
  for (const name in record) {
    if (Object.hasOwn(properties, name)) continue;
    if (names) at(walk, name, name, names);
    if (checkOther) at(walk, name, record[name], other as JsonSchema);
  }
}

const NONE: Readonly<Record<string, JsonSchema>> = {};

/** `{}`: any value. */
function isAny(schema: JsonSchema): boolean {
  for (const _ in schema) return false;
  return true;
}

function say(walk: Walk, message: string): void {
  if (walk.issues.length < MAX_ISSUES) walk.issues.push({ field: walk.path.join('.') || '(body)', message });
}
