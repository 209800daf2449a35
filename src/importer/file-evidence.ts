// What a file says of itself, gathered as its rows are read: the order of each date column's
// slash dates, whether its numbers write a decimal comma, and the countries its international
// numbers and country columns name. It calls
// no one: what it finds that the user should hear of is returned to the reader that asked.
import type { AttributeDefinition } from '../api/attribute.js';
import { countryCode } from './countries.js';
import { attributeColumns, type ColumnMapping } from './mapping.js';
import type { EvidenceNote } from './notes.js';
import { internationalCountry } from './phones.js';
import type { Cell } from './sources/types.js';
import {
  cleanCell,
  type DateOrder,
  firstValue,
  isDotThousands,
  isLocalDateTime,
  slashDateOrder,
  writesDecimalComma,
} from './values.js';

/** A date-time without a zone, in a column: read as UTC, which the user is told once. */
export interface LocalTime {
  column: string;
  example: string;
}

/** A number of the file that shows its decimal mark is the comma (`1.234,56`), and its column. */
export interface DecimalComma {
  column: string;
  example: string;
}

/**
 * What the file tells about itself, gathered as rows are read (the pipeline looks ahead a few
 * rows before the first is validated): for each date column, whether its slash dates are M/D/YYYY
 * or D/M/YYYY; whether its number columns write a decimal comma; and which countries its international phone numbers belong to and its country
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
  readonly #numberColumns: { index: number; header: string }[];
  /** The first number seen that writes a decimal comma: then `1.200` may be 1200. */
  #decimalComma: DecimalComma | undefined;
  readonly #phoneColumns: number[];
  readonly #countryColumns: number[];
  readonly #multiValue: string[];
  /** Whether the first date-time without a zone is still to be told of (no time zone was given). */
  #watchLocalTimes: boolean;
  readonly #countries = new Set<string>();
  /** The export's own order, for a column whose values leave it open. */
  readonly #fallbackOrder: DateOrder | undefined;
  #sorted: string[] | undefined = [];

  /**
   * `definitions`: the agent's, which say which columns fill a date or number attribute. With
   * `dateOrder`, slash dates read in that order whatever their values say.
   */
  constructor(
    mapping: ColumnMapping | undefined,
    definitions: readonly AttributeDefinition[] = [],
    options: {
      dateOrder?: DateOrder | undefined;
      /** Tell of the first date-time without a zone in a date column (see `dateValue`). */
      watchLocalTimes?: boolean | undefined;
    } = {},
  ) {
    const columns = (type: 'date' | 'number') =>
      mapping ? attributeColumns(mapping, definitions, type) : [];
    this.#dateColumns = columns('date').map(({ index, header }) => ({
      index,
      header,
      order: options.dateOrder,
    }));
    this.#numberColumns = columns('number');
    this.#phoneColumns = mapping?.phoneColumns ?? [];
    this.#countryColumns = mapping?.countryColumns ?? [];
    this.#multiValue = mapping?.multiValue ?? [];
    this.#fallbackOrder = mapping?.dateOrder;
    this.#watchLocalTimes = this.#dateColumns.length > 0 && options.watchLocalTimes === true;
  }

  /**
   * Looks at one row's date and phone cells (the rows read ahead, before the first is validated).
   * Returns the first date-time without a zone of the file when this row holds it.
   */
  observe(raw: readonly Cell[]): LocalTime | undefined {
    let local: LocalTime | undefined;
    for (const column of this.#dateColumns) {
      const cell = raw[column.index];
      if (!cell) continue;
      if (this.#watchLocalTimes) local ??= this.dateValue(column.index, cleanCell(cell));
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
    for (const column of this.#numberColumns) {
      if (this.#decimalComma) break;
      const cell = raw[column.index];
      if (cell) this.#learnDecimalMark(column.header, cleanCell(cell));
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
    return local;
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
  decisions(): EvidenceNote[] {
    return this.#dateColumns.flatMap((c) =>
      c.decidedBy && c.either && c.order
        ? [
            {
              code: 'date_order_decided' as const,
              message:
                `Column "${c.header}" has dates like ${c.either} that read both ways; ${c.decidedBy} reads only as ` +
                `${c.order === 'dmy' ? 'D/M/YYYY (day first)' : 'M/D/YYYY (month first)'}, so the whole column is read so`,
              column: c.header,
              order: c.order,
            },
          ]
        : [],
    );
  }

  /** Whether any date column is still open (looking further ahead may decide it). */
  get pending(): boolean {
    if (this.#fallbackOrder) return false;
    return this.#dateColumns.some((c) => c.order === undefined && c.either !== undefined);
  }

  /**
   * A date column's value, as read: the first date-time without a zone of the file (when no time
   * zone was given), once, for the reader to tell of.
   */
  dateValue(index: number, value: string): LocalTime | undefined {
    if (!this.#watchLocalTimes || !isLocalDateTime(value)) return undefined;
    this.#watchLocalTimes = false;
    return { column: this.#dateColumns.find((c) => c.index === index)?.header ?? '', example: value };
  }

  dateOrder(index: number): DateOrder | undefined {
    const column = this.#dateColumns.find((c) => c.index === index);
    return column && (column.order ?? this.#fallbackOrder);
  }

  /**
   * For a number column's value as read: what makes it open, when it is `1.200` in a file whose
   * numbers write a decimal comma (then it may be 1200); undefined when it reads one way.
   */
  decimalCommaFor(index: number, value: string): DecimalComma | undefined {
    if (!this.#decimalComma) {
      const column = this.#numberColumns.find((c) => c.index === index);
      if (column) this.#learnDecimalMark(column.header, value);
    }
    return this.#decimalComma && isDotThousands(value) ? this.#decimalComma : undefined;
  }

  #learnDecimalMark(column: string, value: string): void {
    if (writesDecimalComma(value)) this.#decimalComma = { column, example: value };
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
