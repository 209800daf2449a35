// What a file says of itself, gathered as its rows are read: the order of each date column's
// slash dates, the decimal mark its numbers write, and the countries its international numbers
// and country columns name. It calls no one: what it finds that the user should hear of is
// returned to the reader that asked.
import type { AttributeDefinition } from '../api/attribute.js';
import { rowCountry } from './countries.js';
import { SAMPLE_ROWS } from './defaults.js';
import { attributeColumns, type ColumnMapping } from './mapping.js';
import type { EvidenceNote } from './notes.js';
import {
  callingCode,
  countryWithCode,
  internationalCountry,
  isBareDigits,
  isInternational,
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
/** Numbers of a country enough to read a mostly national file's national numbers in it. */
const FEW_NUMBERS = 3;
/** Numbers counted to tell whether most are national: as many as the look-ahead has rows. */
const COUNTED_NUMBERS = SAMPLE_ROWS;

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
   * Rows with a phone number, the first `COUNTED_NUMBERS` (in the look-ahead where a file's
   * phones start in its first rows; a long file's later rows change nothing): those that tell its country (written with its country code, or
   * the row names a country), by calling code; those of digits alone that read with the code they
   * start with, by calling code too; and the rest, national numbers with no country of their own.
   * Counted as rows are observed, then as rows after those are placed (`countPlaced`).
   */
  #told = 0;
  readonly #toldBy = new Map<string, number>();
  #coded = 0;
  readonly #codedBy = new Map<string, number>();
  #untold = 0;
  /** The last row observed ahead: the validator counts the rows after it. */
  #observedThrough = 0;
  /** The first national numbers with no country of their own written in groups (`NATIONALS_SAMPLED`). */
  readonly #nationals: string[] = [];
  /** Of those, which each country writes as its own. */
  readonly #writes = new Map<string, boolean[]>();
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
    let toldCode: string | undefined;
    for (const i of this.#phoneColumns) {
      const cell = raw[i];
      if (!cell) continue;
      const text = phonesIn(firstValue(cleanCell(cell), this.#multiValue).value)[0]!;
      // Words in a phone column (a misplaced cell) are no number of any country.
      if (!/\d/.test(text)) continue;
      const found = internationalCountry(text);
      if (found) this.addCountry(found);
      let withCode: string | undefined;
      if (isBareDigits(text)) {
        this.#bare++;
        // Too long to be national, so written with its country code.
        if (found) this.#withCodes++;
        withCode = found ?? countryWithCode(text);
        if (withCode !== undefined) this.#readWithCodes++;
      }
      if (phone === undefined) {
        phone = isInternational(text) || found ? 'told' : withCode !== undefined ? 'coded' : 'untold';
        nationalText = text;
        toldCode = found ?? withCode;
      }
    }
    let named = false;
    let namedCode: string | undefined;
    for (const i of this.#countryColumns) {
      const cell = raw[i];
      const code = cell ? rowCountry(cleanCell(cell)) : undefined;
      if (code) this.addCountry(code);
      named ||= code !== undefined;
      namedCode ??= code;
    }
    const region = named ? undefined : rowRegion(this.#regionColumns, raw, true);
    if (region) this.addCountry(region.code);
    if (phone)
      this.#count(
        named || region ? 'told' : phone,
        nationalText,
        named ? namedCode : (region?.code ?? toldCode),
      );
    return local;
  }

  #count(phone: 'untold' | 'coded' | 'told', text: string, country: string | undefined): void {
    if (this.#told + this.#coded + this.#untold >= COUNTED_NUMBERS) return;
    // By calling code: a British list's +44 numbers are GB's and Guernsey's alike.
    const code = country && callingCode(country);
    if (phone === 'told') {
      this.#told++;
      if (code) this.#toldBy.set(code, (this.#toldBy.get(code) ?? 0) + 1);
    } else if (phone === 'coded') {
      this.#coded++;
      if (code) this.#codedBy.set(code, (this.#codedBy.get(code) ?? 0) + 1);
    } else {
      this.#untold++;
      if (/\d\D+\d/.test(text) && this.#nationals.length < NATIONALS_SAMPLED) this.#nationals.push(text);
    }
  }

  /**
   * Counts a row the validator placed after those observed ahead: the country its number told
   * (by its code, or its row's country), or none, a national number's.
   */
  countPlaced(row: number, text: string, told: { country: string | undefined } | undefined): void {
    if (row > this.#observedThrough && /\d/.test(text))
      this.#count(told ? 'told' : 'untold', text, told?.country);
  }

  /**
   * The countries a national number with no country of its own may be read in. Where most of the
   * file's numbers are such (`mostlyNational`), a country named by one or two numbers is a few
   * contacts' (a UK list's one Indian contact's `+91` number, which would make an Indian number
   * of every `07400 123 456`), and reads none of them, unless it writes some of the file's
   * national numbers written in groups as its own (`writtenAsOwn`), and the file's countries
   * together write at least two in three of them so: a US survey's `(303) 555-0101` beside one
   * `+1` number, a Google export's `(206) 555-0100` and `020 7946 0654` beside a `+1` and a `+44`
   * number. India writes `074001 23456`.
   */
  nationalCountries(): string[] {
    const countries = this.phoneCountries();
    if (countries.length === 0 || !this.mostlyNational()) return countries;
    const coded = this.writesCountryCodes();
    const sampled = this.#nationals.length;
    const writes = (country: string) => {
      const flags = this.#writes.get(country) ?? [];
      this.#writes.set(country, flags);
      for (let k = flags.length; k < sampled; k++) flags.push(writtenAsOwn(this.#nationals[k]!, country));
      return flags;
    };
    let written = 0;
    for (let k = 0; k < sampled; k++) if (countries.some((country) => writes(country)[k])) written++;
    const explained = sampled > 0 && written * 3 >= sampled * 2;
    return countries.filter(
      (country) => !this.#thin(country, coded) || (explained && writes(country).includes(true)),
    );
  }

  /**
   * Whether a national number is read in `country` of the file's only where written as that
   * country writes its own, group by group: the country is named by one or two numbers of a
   * mostly national file (`nationalCountries`), so its reading of a number in another form is
   * no evidence (a UK list's London numbers are written as Pune's, its mobiles as no Indian's).
   */
  readsOnlyAsOwn(country: string): boolean {
    return this.mostlyNational() && this.#thin(country, this.writesCountryCodes());
  }

  #thin(country: string, coded: boolean): boolean {
    const code = callingCode(country) ?? '';
    return (this.#toldBy.get(code) ?? 0) + (coded ? (this.#codedBy.get(code) ?? 0) : 0) < FEW_NUMBERS;
  }

  /**
   * Whether most of the file's numbers are national with no country of their own. Digits alone
   * that read with their code count as told in a file that writes its numbers so.
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
