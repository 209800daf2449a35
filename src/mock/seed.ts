// `contacts serve --mock --seed FILE` and `startMockServer({ seed })`: contacts and attribute
// definitions put into the store at start and after each `POST /__mock/reset`. A seed is read
// and checked whole when it is loaded (through the importer's readers, so a seed is any file
// `contacts import` takes), and applied the same way every time.
import { readFile } from 'node:fs/promises';
import {
  type AttributeDefinition,
  type AttributeType,
  attributeTextSchemas,
  type ContactInputParsed,
  RESERVED_ATTRIBUTE_NAMES,
} from '../api/index.js';
import { MockHttpError, SeedError } from './errors.js';
import type { MockSeed } from './handler.js';
import { createMockStore } from './sqlite-store.js';

export interface SeedOptions {
  /** The agent a file of contacts belongs to (a file with `agents` names its own). */
  agent?: string;
}

interface AgentSeed {
  agent: string;
  /** The file, for messages. */
  file: string;
  definitions: unknown[];
  contacts: { where: string; body: unknown }[];
}

const BATCH = 1000;

/**
 * Reads a seed: a JSON object `{"agents": {"<id>": {"attributes": [...], "contacts": [...]}}}`
 * (one with `version`, as `snapshot()` gives, is restored exactly, ids included), or a
 * CSV, JSON or NDJSON file of contacts for `options.agent`, whose attributes are defined from
 * the values they hold (numbers, booleans, ISO dates, else text). Throws a `SeedError` naming
 * the first problem; returns what puts the seed into a store.
 */
export async function loadSeed(file: string, options: SeedOptions = {}): Promise<MockSeed> {
  let apply: MockSeed;
  const object = await readAgentsObject(file);
  if (object !== undefined) {
    apply = fromObject(file, object);
  } else {
    if (!options.agent) {
      throw new SeedError(
        `Seed ${file}: say which agent its contacts belong to (--seed-agent ID), or write it as {"agents": {"ID": {"contacts": [...]}}}`,
      );
    }
    apply = fromRecords(await readRecords(file, options.agent));
  }
  // Checked once, whole, on a scratch store: a seed that loads applies the same way every time.
  const scratch = createMockStore();
  try {
    apply(scratch);
  } finally {
    scratch.close();
  }
  return apply;
}

/** The file's JSON when it is one object with `agents` (not an array, not NDJSON). */
async function readAgentsObject(file: string): Promise<object | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new SeedError(`Cannot read seed ${file}: ${(error as Error).message}`);
  }
  if (!text.trimStart().startsWith('{')) return undefined;
  try {
    const value = JSON.parse(text);
    return typeof value === 'object' && value !== null && 'agents' in value ? value : undefined;
  } catch {
    return undefined; // NDJSON, or a broken file the importer's reader will name the line of
  }
}

function fromObject(file: string, raw: unknown): MockSeed {
  const object = raw as { version?: unknown; agents?: unknown };
  if ('version' in object) {
    return (store, agent) => {
      try {
        store.restore(raw, agent);
      } catch (error) {
        throw new SeedError(`Seed ${file}: ${(error as Error).message}`);
      }
    };
  }
  const agents = object.agents;
  if (typeof agents !== 'object' || agents === null || Array.isArray(agents)) {
    throw new SeedError(
      `Seed ${file}: expected {"agents": {"<agent id>": {"attributes": [...], "contacts": [...]}}}`,
    );
  }
  const seeds: AgentSeed[] = [];
  for (const [agent, value] of Object.entries(agents)) {
    const { attributes = [], contacts = [] } = (value ?? {}) as { attributes?: unknown; contacts?: unknown };
    if (!Array.isArray(attributes) || !Array.isArray(contacts)) {
      throw new SeedError(`Seed ${file}: agents.${agent}: "attributes" and "contacts" must be arrays`);
    }
    seeds.push({
      agent,
      file,
      definitions: attributes,
      contacts: contacts.map((body, i) => ({ where: `${file}: agents.${agent}.contacts.${i}`, body })),
    });
  }
  return fromRecords(seeds);
}

function fromRecords(seeds: AgentSeed | AgentSeed[]): MockSeed {
  const list = Array.isArray(seeds) ? seeds : [seeds];
  return (store, agent) => {
    for (const seed of list) {
      if (agent !== undefined && seed.agent !== agent) continue;
      seed.definitions.forEach((definition, i) => {
        try {
          store.defineAttribute(seed.agent, definition);
        } catch (error) {
          throw seedError(`${seed.file}: agents.${seed.agent}.attributes.${i}`, error);
        }
      });
      for (let start = 0; start < seed.contacts.length; start += BATCH) {
        const chunk = seed.contacts.slice(start, start + BATCH);
        try {
          store.batchUpsert(seed.agent, { users: chunk.map((c) => c.body) });
        } catch (error) {
          // Name the item the answer names (`users.N.field`), else the batch's first.
          const issue = error instanceof MockHttpError ? error.issues?.[0] : undefined;
          const index = issue ? Number(/^users\.(\d+)/.exec(issue.field)?.[1] ?? 0) : 0;
          throw seedError(chunk[index]?.where ?? 'seed', error);
        }
      }
    }
  };
}

function seedError(where: string, error: unknown): Error {
  if (error instanceof SeedError) return error;
  const issues = error instanceof MockHttpError ? error.issues : undefined;
  const detail = issues?.length
    ? issues.map((i) => `${i.field.replace(/^users\.\d+\./, '')}: ${i.message}`).join('; ')
    : (error as Error).message;
  return new SeedError(`Seed ${where}: ${detail}`);
}

/** A file of contacts through the importer's readers, its attributes defined from their values. */
async function readRecords(file: string, agent: string): Promise<AgentSeed> {
  const { openSource, resolveMapping, createRowValidator, REJECT_KEYS } = await import(
    '../importer/index.js'
  );
  const { headerWords, roleByWords } = await import('../importer/columns.js');
  // A column a contact field takes is no attribute; a country column (it only places phones) is.
  const fieldColumn = (header: string) => {
    const role = roleByWords(headerWords(header));
    return role !== undefined && role !== 'none' && role !== 'country';
  };
  const source = await openSource(file);
  const records = [];
  for await (const record of source.records) records.push(record);

  // The attributes: CSV columns no contact field takes (and `attr.x` ones), or JSON
  // `custom_attributes` keys, each with the values it holds.
  const values = new Map<string, unknown[]>();
  const note = (name: string, value: unknown) => {
    const seen = values.get(name) ?? [];
    values.set(name, seen);
    if (value !== undefined && value !== null && value !== '') seen.push(value);
  };
  let mapping: ReturnType<typeof resolveMapping> | undefined;
  const overrides: { header: string; targets: { kind: 'attribute'; name: string }[] }[] = [];
  if (source.header) {
    const columns = new Map<number, string>();
    source.header.forEach((cell, i) => {
      const header = cell.trim();
      if (!header || header === REJECT_KEYS.line || header === REJECT_KEYS.error) return;
      const prefixed = /^(attr|custom_attributes)\./i.test(header);
      // An export's own record fields (id, created_at, updated_at) are the service's, not data.
      if (!prefixed && (fieldColumn(header) || RESERVED_ATTRIBUTE_NAMES.has(header))) return;
      const name = attributeName(header.replace(/^(attr|custom_attributes)\./i, ''));
      if (name === undefined || values.has(name)) {
        throw new SeedError(
          `Seed ${file}: column "${header}" cannot be an attribute name (a-z, 0-9 and _, starting with a letter)`,
        );
      }
      columns.set(i, name);
      overrides.push({ header: cell, targets: [{ kind: 'attribute', name }] });
      note(name, undefined);
    });
    for (const r of records) for (const [i, name] of columns) note(name, r.raw?.[i]);
  } else {
    for (const r of records) {
      const attrs = r.record['custom_attributes'];
      if (attrs && typeof attrs === 'object') for (const [k, v] of Object.entries(attrs)) note(k, v);
    }
  }
  const definitions: AttributeDefinition[] = [...values].map(([name, seen]) => ({
    name,
    type: inferType(seen),
    label: name,
    description: null,
    archived: false,
  }));
  if (source.header) mapping = resolveMapping({ header: source.header, definitions, overrides });
  const validate = createRowValidator({ definitions, mapping });
  const contacts: { where: string; body: ContactInputParsed }[] = [];
  for (const record of records) {
    const row = validate(record);
    if (!row.ok) throw new SeedError(`Seed ${file} line ${row.line}: ${row.reason}`);
    contacts.push({ where: `${file} line ${row.line}`, body: row.input });
  }
  return {
    agent,
    file,
    definitions: definitions.map(({ name, type }) => ({ name, type })),
    contacts,
  };
}

/** A header as an attribute name: `Plan Type` -> `plan_type`; undefined when none can be made. */
function attributeName(header: string): string | undefined {
  const name = header
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);
  return /^[a-z]/.test(name) && !RESERVED_ATTRIBUTE_NAMES.has(name) ? name : undefined;
}

/**
 * The narrowest type every value fits, by the contract's own rules for values written as text
 * (`attributeTextSchemas`, which the importer converts CSV cells with; JSON values keep their own
 * type). One rule of the seed's own: a string with a leading zero (a zip code, a phone extension)
 * stays text, since as a number it would lose the zero.
 */
function inferType(values: unknown[]): AttributeType {
  if (values.length === 0) return 'text';
  const fits = (type: AttributeType) => values.every((v) => attributeTextSchemas[type].safeParse(v).success);
  if (!values.some((v) => typeof v === 'string' && LEADING_ZERO_RE.test(v.trim())) && fits('number'))
    return 'number';
  if (fits('boolean')) return 'boolean';
  if (fits('date')) return 'date';
  return 'text';
}

const LEADING_ZERO_RE = /^[+-]?0\d/;
