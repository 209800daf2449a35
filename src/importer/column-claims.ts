// The state a mapping is resolved in (./mapping.ts): for each column of the header, what it
// fills and whether a rule may still touch it; the targets one column took; and the lists of the
// targets several columns fill in turn (phonenumber, email, country). The rules of resolveMapping
// claim columns here, in their order of precedence; the first claim of a target wins.
import { type ColumnTarget, describeTarget, type MapOverride, targetKey } from './column-targets.js';
import { MappingError } from './errors.js';

/** Targets several columns fill, in order: the first column with a usable value wins. */
export type OrderedTarget = 'phonenumber' | 'email' | 'country';

const ORDERED = new Set<string>(['phonenumber', 'email', 'country']);
const isOrdered = (key: string): key is OrderedTarget => ORDERED.has(key);

interface Column {
  /** What the column fills (often one thing; none when it is ignored). */
  targets: ColumnTarget[];
  /** No automatic rule may touch it: an override or an earlier rule decided it. */
  decided: boolean;
  /** Left out on purpose (an override's `-`, the rejects' own columns): not reported as unmapped. */
  ignored: boolean;
}

export class ColumnClaims {
  readonly #columns: Column[];
  /** Targets one column fills, by key (`targetKey`), once taken. */
  readonly #taken = new Set<string>();
  /** The columns of each ordered target, in the order they are tried. */
  readonly ordered: Record<OrderedTarget, number[]> = { phonenumber: [], email: [], country: [] };
  /** The ordered targets an override names: automatic columns do not join their lists. */
  readonly #overridden: Set<string>;

  constructor(width: number, overrides: readonly MapOverride[]) {
    this.#columns = Array.from({ length: width }, () => ({ targets: [], decided: false, ignored: false }));
    this.#overridden = new Set(overrides.flatMap((o) => o.targets.map(targetKey)));
  }

  targets(i: number): ColumnTarget[] {
    return this.#columns[i]!.targets;
  }

  isDecided(i: number): boolean {
    return this.#columns[i]!.decided;
  }

  isIgnored(i: number): boolean {
    return this.#columns[i]!.ignored;
  }

  /** No rule may touch the column; `ignored`: and it is not reported as unmapped. */
  decide(i: number, ignored = false): void {
    const column = this.#columns[i]!;
    column.decided = true;
    if (ignored) column.ignored = true;
  }

  /** Left out on purpose, whether or not a rule decided it. */
  ignore(i: number): void {
    this.#columns[i]!.ignored = true;
  }

  /** Whether one column fills the target already (`targetKey`), or a list of it has any. */
  fills(key: string): boolean {
    return this.#taken.has(key) || (isOrdered(key) && this.ordered[key].length > 0);
  }

  /**
   * An override's targets for the column, in the order given: an ordered target's list follows
   * the overrides' order; any other target taken twice is a MappingError.
   */
  override(i: number, targets: readonly ColumnTarget[]): void {
    for (const target of targets) {
      const key = targetKey(target);
      if (isOrdered(key)) {
        // Named in the overrides' order: a fallback list (`Phone`, then `Mobile`).
        if (!this.ordered[key].includes(i)) this.ordered[key].push(i);
      } else if (this.#taken.has(key)) {
        throw new MappingError(`Two columns are mapped to ${describeTarget(target)}; keep one of them`, {
          detail: { code: 'map_duplicate_target', target: describeTarget(target) },
        });
      }
      this.#taken.add(key);
      this.#columns[i]!.targets.push(target);
    }
    this.decide(i, targets.length === 0);
  }

  /**
   * An automatic rule's claim: the column fills the target unless another took it first (an
   * ordered target's list is joined, unless an override named that target).
   */
  claim(i: number, target: ColumnTarget): void {
    const key = targetKey(target);
    if (isOrdered(key)) {
      if (this.#overridden.has(key) || this.ordered[key].includes(i)) return;
      this.ordered[key].push(i);
    } else {
      if (this.#taken.has(key)) return;
      this.#taken.add(key);
    }
    this.#columns[i]!.targets.push(target);
    this.#columns[i]!.decided = true;
  }

  /** The column read for the row's country only (it places phone numbers), in order. */
  addCountry(i: number): void {
    if (!this.ordered.country.includes(i)) this.ordered.country.push(i);
  }

  /** Whether an override named the ordered target: its list is the override's alone. */
  overridden(key: OrderedTarget): boolean {
    return this.#overridden.has(key);
  }

  /** The column that fills external_id, or -1. */
  keyColumn(): number {
    return this.#columns.findIndex((c) =>
      c.targets.some((t) => t.kind === 'field' && t.field === 'external_id'),
    );
  }

  /** What each column fills, by index. */
  get columns(): ColumnTarget[][] {
    return this.#columns.map((c) => c.targets);
  }
}
