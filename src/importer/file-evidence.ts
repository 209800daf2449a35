// What a file says of itself, gathered as its rows are read: the order of each date column's
// slash dates, the decimal mark its numbers write, and the countries its international numbers
// and country columns name. It calls no one: what it finds that the user should hear of is
// returned to the reader that asked.
import type { AttributeDefinition } from '../api/attribute.js';
import { rowCountry } from './countries.js';
import { attributeColumns, type ColumnMapping } from './mapping.js';
import type { EvidenceNote } from './notes.js';
import {
  internationalCountry,
  isBareDigits,
  isInternational,
  validWithCode,
  writtenAsOwn,
} from './phones.js';
import { type RegionSource, rowRegion } from './regions.js';
import type { Cell } from './sources/types.js';
import {
  cleanCell,
  type DateOrder,
  decimalMarkOf,
  firstValue,
  isLocalDateTime,
  phonesIn,
  readDate,
  slashDateOrder,
} from './values.js';

/** National numbers kept to see which of the file's countries write them as their own. */
const NATIONALS_SAMPLED = 100;

/** A date-time without a zone, in a column: read as UTC, which the user is told once. */
export interface LocalTime {
  column: string;
  example: string;
}

/** The decimal mark the file's numbers write, and the first number that showed it. */
export interface DecimalMark {
  mark: ',' | '.';
  column: string;
  example: string;
}

/**
 * What the file tells about itself, gathered as rows are read (the pipeline looks ahead a few
 * rows before the first is validated): for each date column, whether its slash dates are M/D/YYYY
 * or D/M/YYYY; the decimal mark its number columns write (`1.234,56`: a comma); and which
 * countries its international phone numbers belong to and its country columns name, the
 * candidates for a national number with no country of its own.
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
  /** The decimal mark of the first number that showed one: it reads `1,200` and `1.200`. */
  #decimalMark: DecimalMark | undefined;
  /** A number that showed the other mark: then the file says nothing of `1,200`. */
  #otherMark: DecimalMark | undefined;
  /** Whether plain numeric text (`3.5`) shows a decimal point: not in a workbook's number cells. */
  readonly #plainShowsMark: boolean;
  readonly #phoneColumns: number[];
  readonly #countryColumns: number[];
  readonly #regionColumns: RegionSource[];
  readonly #multiValue: string[];
  /** Whether the first date-time without a zone is still to be told of (no time zone was given). */
  #watchLocalTimes: boolean;
  readonly #countries = new Set<string>();
  /**
   * Numbers written as digits alone, those of them too long to be national, and those valid read
   * with the country code they start with.
   */
  #bare = 0;
  #withCodes = 0;
  #readWithCodes = 0;
  /**
   * Rows with a phone number: those that tell its country (written with its country code, or the
   * row names a country), those of digits alone that read with the code they start with, and the
   * rest, national numbers with no country of their own. Counted as rows are observed, then as
   * later rows are placed (`countPlaced`).
   */
  #told = 0;
  #coded = 0;
  #untold = 0;
  /** The last row observed ahead: the validator counts the rows after it. */
  #observedThrough = 0;
  /** The first national numbers with no country of their own (`NATIONALS_SAMPLED`). */
  readonly #nationals: string[] = [];
  /** Of those, how many each of the file's countries reads as it writes its own numbers. */
  readonly #readsNationals = new Map<string, { tried: number; read: number }>();
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
      /** A workbook's: its number cells read `3.5` in any locale, so they show no decimal mark. */
      workbook?: boolean | undefined;
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
    this.#plainShowsMark = options.workbook !== true;
    this.#phoneColumns = mapping?.phoneColumns ?? [];
    this.#countryColumns = mapping?.countryColumns ?? [];
    this.#regionColumns = mapping?.regionColumns ?? [];
    this.#multiValue = mapping?.multiValue ?? [];
    this.#fallbackOrder = mapping?.dateOrder;
    this.#watchLocalTimes = this.#dateColumns.length > 0 && options.watchLocalTimes === true;
  }

  /**
   * Looks at one row's date and phone cells (the rows read ahead, before the first is validated).
   * Returns the first date-time without a zone of the file when this row holds it.
   */
  observe(raw: readonly Cell[], row = 0): LocalTime | undefined {
    this.#observedThrough = Math.max(this.#observedThrough, row);
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
      const cell = raw[column.index];
      if (cell) this.#learnDecimalMark(column.header, cleanCell(cell));
    }
    /** What the row's first number tells of its country: nothing, by its code, or read with one. */
    let phone: 'untold' | 'coded' | 'told' | undefined;
    let nationalText = '';
    for (const i of this.#phoneColumns) {
      const cell = raw[i];
      if (!cell) continue;
      const text = phonesIn(firstValue(cleanCell(cell), this.#multiValue).value)[0]!;
      // Words in a phone column (a misplaced cell) are no number of any country.
      if (!/\d/.test(text)) continue;
      const found = internationalCountry(text);
      if (found) this.addCountry(found);
      let readWithCode = false;
      if (isBareDigits(text)) {
        this.#bare++;
        // Too long to be national, so written with its country code.
        if (found) this.#withCodes++;
        readWithCode = found !== undefined || validWithCode(text);
        if (readWithCode) this.#readWithCodes++;
      }
      if (phone === undefined) {
        phone = isInternational(text) || found ? 'told' : readWithCode ? 'coded' : 'untold';
        nationalText = text;
      }
    }
    let named = false;
    for (const i of this.#countryColumns) {
      const cell = raw[i];
      const code = cell ? rowCountry(cleanCell(cell)) : undefined;
      if (code) this.addCountry(code);
      named ||= code !== undefined;
    }
    const region = named ? undefined : rowRegion(this.#regionColumns, raw, true);
    if (region) this.addCountry(region.code);
    if (phone) this.#count(named || region ? 'told' : phone, nationalText);
    return local;
  }

  #count(phone: 'untold' | 'coded' | 'told', text: string): void {
    if (phone === 'told') this.#told++;
    else if (phone === 'coded') this.#coded++;
    else {
      this.#untold++;
      if (this.#nationals.length < NATIONALS_SAMPLED) this.#nationals.push(text);
    }
  }

  /**
   * Counts a row the validator placed after those observed ahead: whether its number told its
   * country (its code, or its row's country) or was national with none.
   */
  countPlaced(row: number, told: boolean, text: string): void {
    if (row > this.#observedThrough) this.#count(told ? 'told' : 'untold', text);
  }

  /**
   * Whether the file's countries, together, write at least half of its national numbers with no
   * country (the first hundred) as their own (`writtenAsOwn`). Where most of its numbers are
   * national, the countries of its few international ones read them only then: those may be its
   * exceptions (a UK list's foreign contacts). A US survey's `(303) 555-0101` and `303-555-0102`
   * are written as the US writes them; a UK list's `07400 123 456` is no Indian `074001 23456`.
   */
  writesNationalsAsOwn(): boolean {
    const tried = this.#nationals.length;
    let read = 0;
    for (const country of this.phoneCountries()) {
      const counts = this.#readsNationals.get(country) ?? { tried: 0, read: 0 };
      this.#readsNationals.set(country, counts);
      for (; counts.tried < tried; counts.tried++) {
        if (writtenAsOwn(this.#nationals[counts.tried]!, country)) counts.read++;
      }
      read += counts.read;
    }
    return read * 2 >= tried;
  }

  /**
   * Whether most of the file's numbers are national with no country of their own. Then its
   * international numbers are its exceptions (a UK list's few foreign contacts), and tell
   * nothing of the country the rest are written in: `07400 123456` beside one `+91` number is
   * no Indian number. Digits alone that read with their code count as told in a file that
   * writes its numbers so.
   */
  mostlyNational(): boolean {
    const coded = this.writesCountryCodes();
    return this.#untold + (coded ? 0 : this.#coded) > this.#told + (coded ? this.#coded : 0);
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

  /**
   * A date column's slash date that reads both ways (`10/02/2024`), in ISO form as the order the
   * file showed reads it; undefined for any other cell, or while the order is open.
   */
  isoDate(index: number, text: string, timeZone: string | undefined): string | undefined {
    if (slashDateOrder(text) !== 'either') return undefined;
    const order = this.dateOrder(index);
    return order && readDate(text, order, timeZone);
  }

  dateOrder(index: number): DateOrder | undefined {
    const column = this.#dateColumns.find((c) => c.index === index);
    return column && (column.order ?? this.#fallbackOrder);
  }

  /**
   * The decimal mark the file's numbers write, learnt from the number columns' values read so
   * far, this one (of column `index`) included; undefined while none has shown one, and once
   * two have shown different ones.
   */
  decimalMark(index: number, value: string): DecimalMark | undefined {
    const column = this.#numberColumns.find((c) => c.index === index);
    if (column) this.#learnDecimalMark(column.header, value);
    return this.#otherMark ? undefined : this.#decimalMark;
  }

  /** The two numbers that showed different decimal marks, once two have. */
  decimalMarksDisagree(): [DecimalMark, DecimalMark] | undefined {
    return this.#decimalMark && this.#otherMark ? [this.#decimalMark, this.#otherMark] : undefined;
  }

  #learnDecimalMark(column: string, value: string): void {
    const mark = decimalMarkOf(value, this.#plainShowsMark);
    if (!mark) return;
    if (!this.#decimalMark) this.#decimalMark = { mark, column, example: value };
    else if (mark !== this.#decimalMark.mark) this.#otherMark ??= { mark, column, example: value };
  }

  addCountry(code: string): void {
    if (this.#countries.has(code)) return;
    this.#countries.add(code);
    this.#sorted = undefined;
  }

  /**
   * Whether the file writes its numbers with their country code and no `+` (an SMS tool's
   * `4915112345678`): at least two too long to be national, and three in four of those written
   * as digits alone valid so (a Chinese list's `13812345678` is seldom a valid `+1 381` number).
   */
  writesCountryCodes(): boolean {
    return this.#withCodes >= 2 && this.#readWithCodes >= this.#bare * 0.75;
  }

  /** The countries of the file's international numbers and country columns so far, sorted. */
  phoneCountries(): string[] {
    this.#sorted ??= [...this.#countries].sort();
    return this.#sorted;
  }
}
