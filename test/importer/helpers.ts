// Shared by the importer tests: temp dirs, attribute definitions, and reading a source to the end.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach } from 'vitest';
import type { AttributeDefinition } from '../../src/api/attribute.js';
import { type OpenSourceOptions, openSource, type SourceRecord } from '../../src/importer/sources/index.js';

const dirs: string[] = [];

/** A fresh directory under the OS temp dir, removed after the test. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'contacts-import-'));
  dirs.push(dir);
  return dir;
}

afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** Write `content` to `name` in a fresh temp dir; returns the path. */
export async function fixture(name: string, content: string | Buffer): Promise<string> {
  const path = join(await tempDir(), name);
  await writeFile(path, content);
  return path;
}

export async function readAll(input: string, options?: OpenSourceOptions): Promise<SourceRecord[]> {
  const source = await openSource(input, options);
  const out: SourceRecord[] = [];
  for await (const record of source.records) out.push(record);
  return out;
}

/** A stdin stand-in that hands `text` over in chunks of `size` bytes (splitting lines and characters). */
export function stdinOf(text: string, size = 7): Readable {
  const bytes = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return Readable.from(chunks);
}

export const def = (
  name: string,
  type: AttributeDefinition['type'],
  archived = false,
): AttributeDefinition => ({
  name,
  type,
  label: name,
  description: null,
  archived,
});

export const DEFINITIONS: AttributeDefinition[] = [
  def('plan', 'text'),
  def('seats', 'number'),
  def('vip', 'boolean'),
  def('signup_date', 'date'),
  def('legacy_code', 'text', true),
];
