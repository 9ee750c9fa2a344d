import type { CharSet } from './char-set.ts';
import { groupsWithin, nullable } from './regex-node.ts';
import type { Assertion, RegexNode } from './regex-node.ts';
import { RegexSyntaxError } from './regex-syntax-error.ts';

/** Consume one code point in `sets[pc]`, then go to `next[pc]`. */
export const OP_SET = 0;
/** Consume the code point `arg[pc]`, then go to `next[pc]`. */
export const OP_CHAR = 1;
/** Go to `next[pc]` (preferred) and to `arg[pc]`. */
export const OP_SPLIT = 2;
/** Go to `next[pc]`. */
export const OP_JUMP = 3;
/** Record the position in capture slot `arg[pc]`, then go to `next[pc]`. */
export const OP_SAVE = 4;
/** Clear capture slots `arg[pc]`…`extra[pc]` (a repeated group's captures at each iteration), then go to `next[pc]`. */
export const OP_RESET = 5;
/** Go to `next[pc]` if assertion number `arg[pc]` holds here. */
export const OP_ASSERT = 6;
/** The thread dies (an optional iteration that consumed nothing). */
export const OP_FAIL = 7;
/** The pattern matched. */
export const OP_MATCH = 8;

/** The assertions, by number (`arg` of an `OP_ASSERT`). */
export const ASSERTIONS: readonly Assertion[] = [
  'line-start',
  'line-end',
  'text-start',
  'text-end',
  'word-boundary',
  'not-word-boundary',
  'folded-word-boundary',
  'folded-not-word-boundary',
  'newline-start',
  'newline-end',
];

/** The most instructions a pattern may compile to (repetitions are expanded). */
export const MAX_INSTRUCTIONS = 50_000;

/** A compiled pattern: instructions as parallel arrays, for the Pike VM. */
export interface RegexProgram {
  readonly size: number;
  readonly ops: Uint8Array;
  readonly next: Int32Array;
  readonly arg: Int32Array;
  readonly extra: Int32Array;
  readonly sets: ReadonlyArray<CharSet | undefined>;
  /** Capture slots: two per group, group 0 (the whole match) first. */
  readonly slotCount: number;
}

/**
 * Compiles a parsed pattern for the Pike VM (regex-vm.ts). Repetitions are
 * expanded (`x{2,4}` is `x x x? x?`); each iteration clears the captures of
 * the groups inside it, as JavaScript does. JavaScript also rejects an
 * optional iteration that matches the empty string; for a body that can, the
 * body is compiled twice, as "nothing consumed yet in this iteration" (which
 * fails at its end) and "consumed" (which continues), and every code point it
 * consumes moves the thread from the first copy to the second. So a thread's
 * future depends on its instruction alone, which is what makes the VM's
 * one-thread-per-instruction rule exact.
 */
export function compileProgram(node: RegexNode, groupCount: number): RegexProgram {
  const builder = new ProgramBuilder();
  builder.emit(OP_SAVE, 0);
  builder.node(node);
  builder.emit(OP_SAVE, 1);
  builder.emit(OP_MATCH);
  return builder.finish(2 * (groupCount + 1));
}

class ProgramBuilder {
  readonly #ops: number[] = [];
  readonly #next: number[] = [];
  readonly #arg: number[] = [];
  readonly #extra: number[] = [];
  readonly #sets: Array<CharSet | undefined> = [];

  get #pc(): number {
    return this.#ops.length;
  }

  /** Appends an instruction whose `next` is the instruction after it; returns its address. */
  emit(op: number, arg = 0, extra = 0, set?: CharSet): number {
    const pc = this.#pc;
    if (pc >= MAX_INSTRUCTIONS) {
      throw new RegexSyntaxError(`pattern too large: its repetitions expand past ${MAX_INSTRUCTIONS.toLocaleString('en-US')} instructions`);
    }
    this.#ops.push(op);
    this.#next.push(pc + 1);
    this.#arg.push(arg);
    this.#extra.push(extra);
    this.#sets.push(set);
    return pc;
  }

  node(node: RegexNode): void {
    switch (node.type) {
      case 'empty':
        return;
      case 'set':
        if (node.set.single >= 0) this.emit(OP_CHAR, node.set.single);
        else this.emit(OP_SET, 0, 0, node.set);
        return;
      case 'assertion':
        this.emit(OP_ASSERT, ASSERTIONS.indexOf(node.assertion));
        return;
      case 'group':
        this.emit(OP_SAVE, 2 * node.index);
        this.node(node.body);
        this.emit(OP_SAVE, 2 * node.index + 1);
        return;
      case 'concat':
        for (const item of node.items) this.node(item);
        return;
      case 'alternation': {
        const jumps: number[] = [];
        node.items.forEach((item, index) => {
          if (index === node.items.length - 1) {
            this.node(item);
            return;
          }
          const split = this.emit(OP_SPLIT);
          this.node(item);
          jumps.push(this.emit(OP_JUMP));
          this.#arg[split] = this.#pc;
        });
        for (const jump of jumps) this.#next[jump] = this.#pc;
        return;
      }
      case 'repeat':
        this.#repeat(node);
        return;
    }
  }

  #repeat(node: Extract<RegexNode, { type: 'repeat' }>): void {
    const { body, min, max, greedy } = node;
    const groups = groupsWithin(body);
    const iteration = () => {
      if (groups) this.emit(OP_RESET, 2 * groups[0], 2 * groups[1] + 1);
      this.node(body);
    };
    const mayBeEmpty = nullable(body);
    const mandatory = max === Infinity && !mayBeEmpty && min > 0 ? min - 1 : min;
    for (let count = 0; count < mandatory; count++) iteration();
    if (max === Infinity && !mayBeEmpty && min > 0) {
      // x+: the last mandatory iteration loops back.
      const loop = this.#pc;
      iteration();
      const split = this.emit(OP_SPLIT);
      this.#branch(split, loop, this.#pc, greedy);
      return;
    }
    if (max === Infinity) {
      const split = this.emit(OP_SPLIT);
      if (groups) this.emit(OP_RESET, 2 * groups[0], 2 * groups[1] + 1);
      if (mayBeEmpty) this.#freshAndConsumed(body, split);
      else {
        this.node(body);
        this.#next[this.emit(OP_JUMP)] = split;
      }
      this.#branch(split, split + 1, this.#pc, greedy);
      return;
    }
    const splits: number[] = [];
    for (let count = min; count < max; count++) {
      splits.push(this.emit(OP_SPLIT));
      if (!mayBeEmpty) iteration();
      else {
        if (groups) this.emit(OP_RESET, 2 * groups[0], 2 * groups[1] + 1);
        this.#freshAndConsumed(body, undefined);
      }
    }
    for (const split of splits) this.#branch(split, split + 1, this.#pc, greedy);
  }

  /**
   * Emits an optional iteration of a body that can match the empty string:
   * the "fresh" copy ends in `OP_FAIL`, the "consumed" copy continues (jumps
   * to `loop`, or falls through); the fresh copy's consuming instructions
   * lead into the consumed copy.
   */
  #freshAndConsumed(body: RegexNode, loop: number | undefined): void {
    const fresh = this.#pc;
    this.node(body);
    const freshEnd = this.emit(OP_FAIL);
    const consumed = this.#pc;
    this.node(body);
    if (loop !== undefined) this.#next[this.emit(OP_JUMP)] = loop;
    const offset = consumed - fresh;
    for (let pc = fresh; pc < freshEnd; pc++) {
      if (this.#ops[pc] === OP_SET || this.#ops[pc] === OP_CHAR) this.#next[pc]! += offset;
    }
  }

  /** Sets a split's targets: `stay` first when greedy, `leave` first when lazy. */
  #branch(split: number, stay: number, leave: number, greedy: boolean): void {
    this.#next[split] = greedy ? stay : leave;
    this.#arg[split] = greedy ? leave : stay;
  }

  finish(slotCount: number): RegexProgram {
    return {
      size: this.#ops.length,
      ops: Uint8Array.from(this.#ops),
      next: Int32Array.from(this.#next),
      arg: Int32Array.from(this.#arg),
      extra: Int32Array.from(this.#extra),
      sets: this.#sets,
      slotCount,
    };
  }
}
