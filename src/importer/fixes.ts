// The fixes file: the fields left out of contacts that landed (a phone that could not be placed,
// an attribute value that could not be read), each row keyed by its external_id with the field's
// original text and the reasons. Its header is the importer's own field names, so once corrected
// it imports as is and fills in just those fields. Written like the rejects file (in place, only
// when there is something to write), a record as its contact lands; but a resume appends to it,
// from the length the checkpoint recorded, as to the results file: the rows of the run resumed
// are not sent again, so their records are not written again.

import { rowCountry } from './countries.js';
import type { CsvDelimiter, ImportFormat } from './format.js';
import type { ColumnMapping } from './mapping.js';
import type { Keep, OpenOutput } from './output-file.js';
import { rowRegion } from './regions.js';
import { RejectsWriter } from './rejects.js';
import type { FieldProblem } from './row-validator.js';
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
  /** A resume: what of the file to keep and append to (see `OutputFile`). Then call `open()`. */
  keep?: Keep | undefined;
  onFailure?: ((error: Error) => void) | undefined;
  openFile?: OpenOutput | undefined;
}

/** Writes one record a contact that landed with fields left out. */
export class FixesWriter {
  readonly #writer: RejectsWriter;
  readonly #mapping: ColumnMapping | undefined;
  readonly #header: string[] | undefined;

  constructor(options: FixesOptions) {
    this.#mapping = options.mapping;
    this.#header = options.mapping && fixesHeader(options.mapping);
    this.#writer = new RejectsWriter({
      path: options.path,
      what: 'the fixes file',
      format: options.format,
      header: this.#header,
      delimiter: options.delimiter ?? ',',
      bom: options.bom,
      input: options.input,
      keep: options.keep,
      onFailure: options.onFailure,
      openFile: options.openFile,
    });
  }

  get path(): string {
    return this.#writer.path;
  }

  /** Opens the file now when a resume keeps some of it. */
  open(): Promise<void> {
    return this.#writer.open();
  }

  /** Contacts written so far by this run. */
  get count(): number {
    return this.#writer.count;
  }

  /** Bytes of the file once every record so far is written: what a checkpoint records. */
  get length(): number {
    return this.#writer.length;
  }

  /** The file held less than `keep` said: records of the run resumed are missing from it. */
  get short(): boolean {
    return this.#writer.short;
  }

  get failure(): Error | undefined {
    return this.#writer.failure;
  }

  /** The contact keyed `key` (its external_id), from the row `source`, landed without these fields. */
  write(source: SourceRecord, key: string, problems: readonly FieldProblem[]): void {
    const reason = problems.map((p) => `${p.field}: ${p.reason}`).join('; ');
    if (!this.#header || !this.#mapping) {
      const record: Record<string, unknown> = { external_id: key };
      for (const p of problems) {
        if (p.field.startsWith('custom_attributes.')) {
          record.custom_attributes ??= {};
          const attrs = record.custom_attributes as Record<string, unknown>;
          attrs[p.field.slice('custom_attributes.'.length)] = p.value;
        } else record[p.field] = p.value;
      }
      this.#writer.write({ row: source.row, line: source.line, record }, reason);
      return;
    }
    const cells: Cell[] = this.#header.map(() => undefined);
    cells[0] = key;
    for (const p of problems) {
      const column = p.field.startsWith('custom_attributes.')
        ? this.#header.indexOf(`attr.${p.field.slice('custom_attributes.'.length)}`)
        : this.#header.indexOf(p.field);
      if (column !== -1) cells[column] = p.value;
      if (p.field === 'phonenumber') cells[3] = this.#country(source.raw);
    }
    this.#writer.write({ row: source.row, line: source.line, record: {}, raw: cells }, reason);
  }

  /**
   * The row's country as its reading placed it, so a corrected national number is placed the same
   * way: its first country cell that names one, as written, else the country its address names
   * (`TX`, `78701`: US); not its time zone's or its state's alone, weaker words the corrected
   * row's own columns give again.
   */
  #country(raw: Cell[] | undefined): Cell {
    const mapping = this.#mapping;
    if (!mapping || !raw) return undefined;
    for (const i of mapping.countryColumns) {
      const cell = raw[i]?.trim();
      if (cell && rowCountry(cell)) return cell;
    }
    // A weak word is no country to write: a default country reads the corrected number then.
    return rowRegion(mapping.regionColumns ?? [], raw, true)?.code;
  }

  flush(): Promise<void> {
    return this.#writer.flush();
  }

  close() {
    return this.#writer.close();
  }
}
