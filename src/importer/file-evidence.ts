// What a file says of itself, gathered as its rows are read: the order of each date column's
// slash dates, and the countries its international numbers and country columns name.
import type { AttributeDefinition } from '../api/attribute.js';
import { countryCode } from './countries.js';
import type { ColumnMapping } from './mapping.js';
import { internationalCountry } from './phones.js';
import type { Cell } from './sources/types.js';
import { cleanCell, type DateOrder, firstValue, isLocalDateTime, slashDateOrder } from './values.js';

/**
 * What the file tells about itself, gathered as rows are read (the pipeline looks ahead a few
 * rows before the first is validated): for each date column, whether its slash dates are M/D/YYYY
 * or D/M/YYYY; and which countries its international phone numbers belong to and its country
 * columns name, the candidates for a national number with no country of its own.
 */
export class FileEvidence {
  readonly #dateColumns: {
    index: number;
    header: string;
    order: DateOrder | undefined;
    either?: string;
    conflict?: string;
    /** The value that decided the order, when the column's values did. */
    decidedBy?: string;
  }[];
  readonly #phoneColumns: number[];
  readonly #countryColumns: number[];
  readonly #multiValue: string[];
  /** Told of the first date-time without a zone, when the import was given no time zone. */
  #onLocalTime: ((header: string, example: string) => void) | undefined;
  readonly #countries = new Set<string>();
  /** The export's own order, for a column whose values leave it open. */
  readonly #fallbackOrder: DateOrder | undefined;
  #sorted: string[] | undefined = [];

  constructor(
    mapping: ColumnMapping | undefined,
    definitions: Iterable<AttributeDefinition>,
    options: {
      dateOrder?: DateOrder | undefined;
      /** Called once, for the first date-time without a zone in a date column. */
      onLocalTime?: ((header: string, example: string) => void) | undefined;
    } = {},
  ) {
    const dates = new Set([...definitions].filter((d) => d.type === 'date').map((d) => d.name));
    this.#dateColumns = [];
    mapping?.columns.forEach((targets, index) => {
      if (targets.some((t) => t.kind === 'attribute' && dates.has(t.name))) {
        this.#dateColumns.push({ index, header: mapping.header[index]!.trim(), order: options.dateOrder });
      }
    });
    this.#phoneColumns = mapping?.phoneColumns ?? [];
    this.#countryColumns = mapping?.countryColumns ?? [];
    this.#multiValue = mapping?.multiValue ?? [];
    this.#fallbackOrder = mapping?.dateOrder;
    this.#onLocalTime = this.#dateColumns.length > 0 ? options.onLocalTime : undefined;
  }

  /** Looks at one row's date and phone cells. */
  observe(raw: readonly Cell[]): void {
    for (const column of this.#dateColumns) {
      const cell = raw[column.index];
      if (!cell) continue;
      if (this.#onLocalTime) this.dateValue(column.index, cleanCell(cell));
      if (column.order && (column.either || !column.decidedBy)) continue;
      const order = slashDateOrder(cleanCell(cell));
      if (order === 'either') column.either ??= cleanCell(cell);
      else if (order) {
        if (column.order && column.order !== order) column.conflict ??= cleanCell(cell);
        if (!column.order) {
          column.order = order;
          column.decidedBy = cleanCell(cell);
        }
      }
    }
    for (const i of this.#phoneColumns) {
      const cell = raw[i];
      if (!cell) continue;
      const text = firstValue(cleanCell(cell), this.#multiValue).value;
      const found = internationalCountry(text);
      if (found) this.addCountry(found);
    }
    for (const i of this.#countryColumns) {
      const cell = raw[i];
      const code = cell ? countryCode(cleanCell(cell)) : undefined;
      if (code) this.addCountry(code);
    }
  }

  /**
   * A date column whose slash dates read both ways and none decided it: the import cannot guess.
   * (A column given its order by --date-order is never undecided.)
   */
  undecided(): { header: string; example: string } | undefined {
    if (this.#fallbackOrder) return undefined;
    const column = this.#dateColumns.find((c) => c.order === undefined && c.either !== undefined);
    return column && { header: column.header, example: column.either! };
  }

  /**
   * What the values decided of the date columns, said once: the order of a column whose slash
   * dates were open until one value read one way only (`31/05/2024`).
   */
  decisions(): string[] {
    return this.#dateColumns.flatMap((c) =>
      c.decidedBy && c.either
        ? [
            `Column "${c.header}" has dates like ${c.either} that read both ways; ${c.decidedBy} reads only as ` +
              `${c.order === 'dmy' ? 'D/M/YYYY (day first)' : 'M/D/YYYY (month first)'}, so the whole column is read so` +
              ' (--date-order chooses otherwise)',
          ]
        : [],
    );
  }

  /** Whether any date column is still open (looking further ahead may decide it). */
  get pending(): boolean {
    if (this.#fallbackOrder) return false;
    return this.#dateColumns.some((c) => c.order === undefined && c.either !== undefined);
  }

  /** A date column's value, as read: the first date-time without a zone is told of. */
  dateValue(index: number, value: string): void {
    if (!this.#onLocalTime || !isLocalDateTime(value)) return;
    const told = this.#onLocalTime;
    this.#onLocalTime = undefined;
    told(this.#dateColumns.find((c) => c.index === index)?.header ?? '', value);
  }

  dateOrder(index: number): DateOrder | undefined {
    const column = this.#dateColumns.find((c) => c.index === index);
    return column && (column.order ?? this.#fallbackOrder);
  }

  addCountry(code: string): void {
    if (this.#countries.has(code)) return;
    this.#countries.add(code);
    this.#sorted = undefined;
  }

  /** The countries of the file's international numbers so far, sorted. */
  phoneCountries(): string[] {
    this.#sorted ??= [...this.#countries].sort();
    return this.#sorted;
  }
}
