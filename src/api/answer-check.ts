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
export type AnswerCheck<T> = (body: unknown) => Checked<T>;

/**
 * Checks a parsed JSON value against a schema. The value is returned with absent properties set
 * to their defaults (in place: it is the caller's fresh parse); each issue names its dotted path.
 */
export function checkJson<T>(value: unknown, schema: JsonSchema): Checked<T> {
  const issues: Issue[] = [];
  walk(value, schema, [], issues);
  return issues.length === 0 ? { ok: true, value: value as T } : { ok: false, issues };
}

type Kind = JsonType | 'undefined';

function kindOf(value: unknown): Kind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as Kind;
}

function walk(value: unknown, schema: JsonSchema, path: string[], issues: Issue[]): void {
  const kind = kindOf(value);
  if (schema.type !== undefined && !typeMatches(schema.type, kind)) {
    const expected = typeof schema.type === 'string' ? schema.type : schema.type.join(' or ');
    issues.push(issue(path, `expected ${expected}, received ${kind === 'integer' ? 'number' : kind}`));
    return;
  }
  if (schema.enum && !schema.enum.includes(value)) {
    issues.push(issue(path, `expected one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`));
    return;
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) {
      issues.push(issue(path, `expected at least ${schema.minimum}`));
    } else if (schema.maximum !== undefined && value > schema.maximum) {
      issues.push(issue(path, `expected at most ${schema.maximum}`));
    }
  } else if (kind === 'array' && schema.items) {
    const list = value as unknown[];
    for (let i = 0; i < list.length; i++) at(path, String(i), list[i], schema.items, issues);
  } else if (kind === 'object') {
    walkObject(value as Record<string, unknown>, schema, path, issues);
  }
}

/** Walks one part of a value, its key on the shared path for as long (no path built per field). */
function at(path: string[], key: string, value: unknown, schema: JsonSchema, issues: Issue[]): void {
  path.push(key);
  walk(value, schema, path, issues);
  path.pop();
}

function typeMatches(type: JsonType | readonly JsonType[], kind: Kind): boolean {
  if (typeof type === 'string') return type === kind || (type === 'number' && kind === 'integer');
  for (const t of type) if (t === kind || (t === 'number' && kind === 'integer')) return true;
  return false;
}

function walkObject(
  record: Record<string, unknown>,
  schema: JsonSchema,
  path: string[],
  issues: Issue[],
): void {
  const properties = schema.properties ?? NONE;
  for (const name in properties) {
    const property = properties[name] as JsonSchema;
    if (Object.hasOwn(record, name) && record[name] !== undefined) {
      at(path, name, record[name], property, issues);
    } else if (property.default !== undefined) {
      record[name] = structuredClone(property.default);
    } else if (schema.required?.includes(name)) {
      const expected =
        typeof property.type === 'string' ? property.type : (property.type?.join(' or ') ?? 'a value');
      issues.push(issue([...path, name], `expected ${expected}, received nothing`));
    }
  }
  const { additionalProperties: other, propertyNames: names } = schema;
  const checkOther = other !== undefined && !isAny(other);
  if (!checkOther && !names) return;
  for (const name in record) {
    if (Object.hasOwn(properties, name)) continue;
    if (names) at(path, name, name, names, issues);
    if (checkOther) at(path, name, record[name], other as JsonSchema, issues);
  }
}

const NONE: Readonly<Record<string, JsonSchema>> = {};

/** `{}`: any value. */
function isAny(schema: JsonSchema): boolean {
  for (const _ in schema) return false;
  return true;
}

const issue = (path: string[], message: string): Issue => ({
  field: path.join('.') || '(body)',
  message,
});
