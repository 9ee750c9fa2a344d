import { LINE_TERMINATORS, wordCharacters } from './char-classes.ts';
import type { RegexPrefilter } from './regex-prefilter.ts';
import { OP_ASSERT, OP_CHAR, OP_FAIL, OP_JUMP, OP_MATCH, OP_RESET, OP_SAVE, OP_SPLIT } from './regex-program.ts';
import type { RegexProgram } from './regex-program.ts';

/** Counts the VM's work: one step per instruction a thread visits. */
export interface RegexMeter {
  steps: number;
}

const GENERATION_LIMIT = 0x3fffffff;

/**
 * A Pike VM (Thompson's NFA simulation with capture slots): every position
 * of the text is read once, and the threads at a position are kept in
 * priority order with at most one per instruction, so a search takes
 * O(program × text) steps and O(program) memory whatever the pattern, and
 * the first thread to reach the match is the one a backtracking engine
 * would have found first (leftmost, then JavaScript's priority among
 * alternatives and quantifiers). Not re-entrant: one VM per program, reused.
 */
export class PikeVm {
  readonly #program: RegexProgram;
  readonly #prefilter: RegexPrefilter;
  readonly #visited: Int32Array;
  #generation = 0;
  #steps = 0;
  /** Set by `#add` when a yes/no search reached a match. */
  #reached = false;
  readonly #pcs: Int32Array;
  readonly #nextPcs: Int32Array;
  readonly #captures: Array<Int32Array | undefined> = [];
  readonly #nextCaptures: Array<Int32Array | undefined> = [];
  readonly #stackPcs: Int32Array;
  readonly #stackCaptures: Array<Int32Array | undefined> = [];

  constructor(program: RegexProgram, prefilter: RegexPrefilter) {
    this.#program = program;
    this.#prefilter = prefilter;
    this.#visited = new Int32Array(program.size);
    this.#pcs = new Int32Array(program.size);
    this.#nextPcs = new Int32Array(program.size);
    this.#stackPcs = new Int32Array(program.size + 1);
  }

  /**
   * Searches `text` from `from` for the leftmost match. With `slotCount` 0
   * it only answers whether there is one (and stops at the first thread to
   * match, of any priority); otherwise it returns the first `slotCount`
   * capture slots of the match (-1 for a group that did not participate).
   */
  run(text: string, from: number, slotCount: number, meter: RegexMeter | undefined): Int32Array | undefined {
    this.#steps = 0;
    this.#reached = false;
    const required = this.#prefilter.required;
    if (required !== undefined && text.indexOf(required, from) < 0) return undefined;
    try {
      return this.#search(text, from, slotCount);
    } finally {
      if (meter) meter.steps += this.#steps;
      if (slotCount > 0) {
        this.#captures.length = 0;
        this.#nextCaptures.length = 0;
        this.#stackCaptures.length = 0;
      }
    }
  }

  #search(text: string, from: number, slotCount: number): Int32Array | undefined {
    const { ops, next, arg, sets } = this.#program;
    const length = text.length;
    const initial = slotCount > 0 ? new Int32Array(slotCount).fill(-1) : undefined;
    let pcs = this.#pcs;
    let nextPcs = this.#nextPcs;
    let captures = this.#captures;
    let nextCaptures = this.#nextCaptures;
    let matched: Int32Array | undefined;
    let position = this.#candidate(text, from);
    if (position < 0) return undefined;
    this.#advance();
    let count = this.#add(pcs, captures, 0, 0, initial, position, text);
    for (;;) {
      if (this.#reached) return FOUND;
      if (count === 0) {
        if (matched || position >= length) break;
        position = this.#candidate(text, position + (text.codePointAt(position)! > 0xffff ? 2 : 1));
        if (position < 0) break;
        this.#advance();
        count = this.#add(pcs, captures, 0, 0, initial, position, text);
        continue;
      }
      const code = position < length ? text.codePointAt(position)! : -1;
      const width = code > 0xffff ? 2 : 1;
      this.#advance();
      let nextCount = 0;
      this.#steps += count;
      for (let index = 0; index < count; index++) {
        const pc = pcs[index]!;
        const op = ops[pc];
        if (op === OP_MATCH) {
          // Every thread after this one has a lower priority.
          matched = captures[index];
          break;
        }
        if (code < 0 || !(op === OP_CHAR ? arg[pc] === code : sets[pc]!.has(code))) continue;
        nextCount = this.#add(nextPcs, nextCaptures, nextCount, next[pc]!, captures[index], position + width, text);
        if (this.#reached) return FOUND;
      }
      if (code < 0) break;
      position += width;
      if (!matched && this.#mayStart(text, position)) nextCount = this.#add(nextPcs, nextCaptures, nextCount, 0, initial, position, text);
      const swapPcs = pcs;
      pcs = nextPcs;
      nextPcs = swapPcs;
      const swapCaptures = captures;
      captures = nextCaptures;
      nextCaptures = swapCaptures;
      count = nextCount;
    }
    return matched;
  }

  /**
   * Adds the thread at `start` and everything it reaches without consuming
   * (in priority order, depth first) to a list; returns the list's new
   * length. Sets `#reached` instead when only a yes/no answer is wanted and
   * a match was reached.
   */
  #add(pcs: Int32Array, captures: Array<Int32Array | undefined>, count: number, start: number, startCaptures: Int32Array | undefined, position: number, text: string): number {
    const { ops, next, arg, extra } = this.#program;
    const visited = this.#visited;
    const generation = this.#generation;
    const stackPcs = this.#stackPcs;
    const stackCaptures = this.#stackCaptures;
    let steps = 0;
    let top = 0;
    stackPcs[top] = start;
    stackCaptures[top] = startCaptures;
    top++;
    while (top > 0) {
      top--;
      let pc = stackPcs[top]!;
      let slots = stackCaptures[top];
      for (;;) {
        if (visited[pc] === generation) break;
        visited[pc] = generation;
        steps++;
        const op = ops[pc];
        if (op === OP_JUMP) pc = next[pc]!;
        else if (op === OP_SPLIT) {
          stackPcs[top] = arg[pc]!;
          stackCaptures[top] = slots;
          top++;
          pc = next[pc]!;
        } else if (op === OP_SAVE) {
          if (slots && arg[pc]! < slots.length) {
            slots = slots.slice();
            slots[arg[pc]!] = position;
          }
          pc = next[pc]!;
        } else if (op === OP_RESET) {
          if (slots && arg[pc]! < slots.length) {
            slots = slots.slice();
            slots.fill(-1, arg[pc]!, extra[pc]! + 1);
          }
          pc = next[pc]!;
        } else if (op === OP_ASSERT) {
          if (!holds(arg[pc]!, text, position)) break;
          pc = next[pc]!;
        } else if (op === OP_FAIL) break;
        else {
          if (op === OP_MATCH && !slots) {
            this.#reached = true;
            this.#steps += steps;
            return count;
          }
          // A consuming instruction, or a match: a thread, in its place in the priority order.
          pcs[count] = pc;
          captures[count] = slots;
          count++;
          break;
        }
      }
    }
    this.#steps += steps;
    return count;
  }

  #advance(): void {
    if (++this.#generation === GENERATION_LIMIT) {
      this.#visited.fill(0);
      this.#generation = 1;
    }
  }

  /** The first position at or after `position` where a match may start, or -1. */
  #candidate(text: string, position: number): number {
    const start = this.#prefilter.start;
    switch (start.type) {
      case 'anywhere':
        return position <= text.length ? position : -1;
      case 'text-start':
        return position === 0 ? 0 : -1;
      case 'prefix':
        return text.indexOf(start.prefix, position);
      case 'line-start':
        for (let index = position; index <= text.length; index++) if (index === 0 || LINE_TERMINATORS.has(text.charCodeAt(index - 1))) return index;
        return -1;
      case 'first':
        for (let index = position; index < text.length; ) {
          const code = text.codePointAt(index)!;
          if (start.first.has(code)) return index;
          index += code > 0xffff ? 2 : 1;
        }
        return -1;
    }
  }

  #mayStart(text: string, position: number): boolean {
    const start = this.#prefilter.start;
    switch (start.type) {
      case 'anywhere':
        return true;
      case 'text-start':
        return position === 0;
      case 'prefix':
        return text.startsWith(start.prefix, position);
      case 'line-start':
        return position === 0 || LINE_TERMINATORS.has(text.charCodeAt(position - 1));
      case 'first':
        return position < text.length && start.first.has(text.codePointAt(position)!);
    }
  }
}

/** What `run` returns for a yes/no search that matched. */
const FOUND = new Int32Array(0);

/** Whether assertion number `assertion` (ASSERTIONS) holds at `position`. */
function holds(assertion: number, text: string, position: number): boolean {
  switch (assertion) {
    case 0:
      return position === 0 || LINE_TERMINATORS.has(text.charCodeAt(position - 1));
    case 1:
      return position === text.length || LINE_TERMINATORS.has(text.charCodeAt(position));
    case 2:
      return position === 0;
    case 3:
      return position === text.length;
    case 8:
      return position === 0 || text.charCodeAt(position - 1) === 0xa;
    case 9:
      return position === text.length || text.charCodeAt(position) === 0xa;
    default: {
      // Word characters are all in the BMP, so a code unit decides (a surrogate is never one).
      const word = wordCharacters(assertion >= 6);
      const before = position > 0 && word.has(text.charCodeAt(position - 1));
      const after = position < text.length && word.has(text.charCodeAt(position));
      return (before !== after) === (assertion % 2 === 0);
    }
  }
}
