// The fixes file: the fields left out of contacts that landed (a phone that could not be placed,
// an attribute value that could not be read), each row keyed by its external_id with the field's
// original text and the reasons. Its header is the importer's own field names, so once corrected
// it imports as is and fills in just those fields. Written like the rejects file (atomically,
// only when there is something to write).
import type { ContactInputParsed } from '../api/contact.js';
import type { CsvDelimiter, ImportFormat } from './format.js';
import type { ColumnMapping } from './mapping.js';
import { createRejectsWriter, type RejectsWriter } from './rejects.js';
import type { FieldProblem } from './rows.js';
import type { Cell, SourceRecord } from './sources/types.js';

/** CSV: `external_id`, `name`, `phonenumber`, `country` (where the phone is placed), `attr.<name>`... */
export function fixesHeader(mapping: ColumnMapping): string[] {
  const attributes = new Set<string>();
  for (const targets of mapping.columns) {
    for (const t of targets) if (t.kind === 'attribute') attributes.add(t.name);
  }
  return ['external_id', 'name', 'phonenumber', 'country', ...[...attributes].map((a) => `attr.${a}`)];
}

export interface FixesOptions {
  path: string;
  format: ImportFormat;
  mapping: ColumnMapping | undefined;
  bom?: boolean | undefined;
  /** The input's own (a .tsv's fixes file is read back as TSV); default a comma. */
  delimiter?: CsvDelimiter | undefined;
  input?: string | undefined;
}

/** Writes one record a contact that landed with fields left out. */
export class FixesWriter {
  readonly #writer: RejectsWriter;
  readonly #mapping: ColumnMapping | undefined;
  readonly #header: string[] | undefined;

  constructor(options: FixesOptions) {
    this.#mapping = options.mapping;
    this.#header = options.mapping && fixesHeader(options.mapping);
    this.#writer = createRejectsWriter({
      path: options.path,
      format: options.format,
      header: this.#header,
      delimiter: options.delimiter ?? ',',
      bom: options.bom,
      input: options.input,
    });
  }

  get path(): string {
    return this.#writer.path;
  }

  /** Contacts written so far. */
  get count(): number {
    return this.#writer.count;
  }

  write(source: SourceRecord, input: ContactInputParsed, problems: readonly FieldProblem[]): Promise<void> {
    const reason = problems.map((p) => `${p.field}: ${p.reason}`).join('; ');
    if (!this.#header || !this.#mapping) {
      const record: Record<string, unknown> = { external_id: input.external_id };
      for (const p of problems) {
        if (p.field.startsWith('custom_attributes.')) {
          record.custom_attributes ??= {};
          const attrs = record.custom_attributes as Record<string, unknown>;
          attrs[p.field.slice('custom_attributes.'.length)] = p.value;
        } else record[p.field] = p.value;
      }
      return this.#writer.write({ row: source.row, line: source.line, record }, reason);
    }
    const cells: Cell[] = this.#header.map(() => undefined);
    cells[0] = input.external_id;
    for (const p of problems) {
      const column = p.field.startsWith('custom_attributes.')
        ? this.#header.indexOf(`attr.${p.field.slice('custom_attributes.'.length)}`)
        : this.#header.indexOf(p.field);
      if (column !== -1) cells[column] = p.value;
      if (p.field === 'phonenumber') cells[3] = this.#country(source.raw);
    }
    return this.#writer.write({ row: source.row, line: source.line, record: {}, raw: cells }, reason);
  }

  /** The row's country cell as written, so a corrected national number is placed the same way. */
  #country(raw: Cell[] | undefined): Cell {
    for (const i of this.#mapping?.countryColumns ?? []) {
      const cell = raw?.[i]?.trim();
      if (cell) return cell;
    }
    return undefined;
  }

  close() {
    return this.#writer.close();
  }

  abort() {
    return this.#writer.abort();
  }
}
