/** The largest Unicode code point. */
export const MAX_CODE_POINT = 0x10ffff;

/**
 * A set of code points, as sorted, disjoint, non-adjacent inclusive ranges
 * (`[low0, high0, low1, high1, …]`), with a lookup table for ASCII.
 */
export class CharSet {
  /** The ranges, normalized. */
  readonly ranges: readonly number[];
  /** The one code point of a singleton set, or -1. */
  readonly single: number;
  readonly #ascii = new Uint8Array(128);

  /** Builds a set from inclusive ranges in any order (`[low, high, low, high, …]`). */
  constructor(ranges: readonly number[]) {
    this.ranges = normalize(ranges);
    this.single = this.ranges.length === 2 && this.ranges[0] === this.ranges[1] ? this.ranges[0]! : -1;
    for (let index = 0; index < this.ranges.length && this.ranges[index]! < 128; index += 2) {
      for (let code = this.ranges[index]!; code <= Math.min(this.ranges[index + 1]!, 127); code++) this.#ascii[code] = 1;
    }
  }

  /** Whether `code` (a code point) is in the set. */
  has(code: number): boolean {
    if (code < 128) return this.#ascii[code] === 1;
    const ranges = this.ranges;
    let low = 0;
    let high = ranges.length / 2 - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (code < ranges[middle * 2]!) high = middle - 1;
      else if (code > ranges[middle * 2 + 1]!) low = middle + 1;
      else return true;
    }
    return false;
  }

  /** Whether the set holds no code point. */
  get empty(): boolean {
    return this.ranges.length === 0;
  }

  /** The code points not in this set. */
  negate(): CharSet {
    const out: number[] = [];
    let next = 0;
    for (let index = 0; index < this.ranges.length; index += 2) {
      if (this.ranges[index]! > next) out.push(next, this.ranges[index]! - 1);
      next = this.ranges[index + 1]! + 1;
    }
    if (next <= MAX_CODE_POINT) out.push(next, MAX_CODE_POINT);
    return new CharSet(out);
  }

  /** The code points in either set. */
  union(other: CharSet): CharSet {
    return new CharSet([...this.ranges, ...other.ranges]);
  }
}

/** The set of the given code points and ranges. */
export function charSet(...ranges: number[]): CharSet {
  return new CharSet(ranges);
}

/** The union of several sets. */
export function unionOf(sets: readonly CharSet[]): CharSet {
  return new CharSet(sets.flatMap((set) => set.ranges));
}

function normalize(ranges: readonly number[]): number[] {
  const pairs: Array<[number, number]> = [];
  for (let index = 0; index < ranges.length; index += 2) pairs.push([ranges[index]!, ranges[index + 1]!]);
  pairs.sort((left, right) => left[0] - right[0]);
  const out: number[] = [];
  for (const [low, high] of pairs) {
    if (out.length > 0 && low <= out[out.length - 1]! + 1) out[out.length - 1] = Math.max(out[out.length - 1]!, high);
    else out.push(low, high);
  }
  return out;
}
