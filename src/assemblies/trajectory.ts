import type { AssemblyKind } from '../agent/askable.ts';
import type { Usage } from '../agent/usage.ts';

/** One attempt at a step (a retry is a new attempt of the same step). */
export interface StepAttempt {
  /** From 1. */
  readonly number: number;
  readonly status: 'completed' | 'failed';
  /** Epoch milliseconds. */
  readonly startedAt: number;
  /** Epoch milliseconds. */
  readonly finishedAt: number;
  /**
   * The assembly run's logical clock when the attempt started and finished: every start and finish takes
   * the next tick, so overlapping attempts are told apart even when the wall clock did not move.
   */
  readonly startTick: number;
  readonly finishTick: number;
  readonly usage: Usage;
  /** The failure's error name (never its message). */
  readonly error?: string | undefined;
}

/** One logical child execution of a composite assembly: a participant run once, with its retries. */
export interface AssemblyStep {
  /** A stable id for this step. */
  readonly id: string;
  /** The step of the enclosing assembly this step ran inside (nested assemblies), if any. */
  readonly parentId?: string | undefined;
  /** The steps whose results led to this one. */
  readonly predecessorIds: readonly string[];
  /** The graph branch (its fan-out target) this step ran in, if any. */
  readonly branchId?: string | undefined;
  /** The participant's name in its assembly (`as`, the member id, the node id). */
  readonly participant: string;
  /** The assembly that ran this step. */
  readonly assembly: string;
  /** The participant's own name (an agent's or an assembly's). */
  readonly target: string;
  /** The participant's kind. */
  readonly kind: AssemblyKind;
  readonly status: 'completed' | 'failed';
  readonly attempts: readonly StepAttempt[];
  /** The usage of every attempt. */
  readonly usage: Usage;
  /**
   * The participant's output (its checked structured value or its text; a swarm handoff's
   * `{ agentId, message, context }`), when its JSON is at most 64 KiB; otherwise `undefined` and
   * `outputTruncated`.
   */
  readonly output: unknown;
  readonly outputTruncated: boolean;
}

/** A pair of step ids: a predecessor and the step it led to. */
export type StepTransition = readonly [from: string, to: string];

/**
 * Queries over the steps of one composite run, in execution order
 * (`run.trajectory`). Iterable.
 *
 * @example
 * for (const step of run.trajectory) console.log(step.participant, step.status);
 * const [ledger, policy] = ['ledger', 'policy'].map((name) => run.trajectory.find((step) => step.participant === name)!);
 * run.trajectory.concurrent(ledger.id, policy.id); // true after a fan-out
 */
export class Trajectory implements Iterable<AssemblyStep> {
  /** The steps in execution order. */
  readonly steps: readonly AssemblyStep[];
  readonly #byId: ReadonlyMap<string, AssemblyStep>;

  constructor(steps: readonly AssemblyStep[]) {
    this.steps = Object.freeze([...steps]);
    this.#byId = new Map(this.steps.map((step) => [step.id, step]));
  }

  [Symbol.iterator](): Iterator<AssemblyStep> {
    return this.steps[Symbol.iterator]();
  }

  /** Calls `visit` with each step in order. */
  each(visit: (step: AssemblyStep, index: number) => void): void {
    this.steps.forEach(visit);
  }

  /** The first step `predicate` accepts. */
  find(predicate: (step: AssemblyStep) => boolean): AssemblyStep | undefined {
    return this.steps.find(predicate);
  }

  /** The step with this id. */
  step(id: string): AssemblyStep | undefined {
    return this.#byId.get(id);
  }

  /** The steps that ran inside step `id` (a nested assembly's steps). */
  children(id: string): readonly AssemblyStep[] {
    return this.steps.filter((step) => step.parentId === id);
  }

  /** The attempts of step `id` (empty for an unknown id). */
  attemptsFor(id: string): readonly StepAttempt[] {
    return this.step(id)?.attempts ?? [];
  }

  /** Every declared predecessor → step pair, in step order. */
  transitions(): readonly StepTransition[] {
    return this.steps.flatMap((step) => step.predecessorIds.map((from) => [from, step.id] as const));
  }

  /** Whether an attempt of step `a` overlapped an attempt of step `b`. */
  concurrent(a: string, b: string): boolean {
    const first = this.step(a);
    const second = this.step(b);
    if (!first || !second || first === second) return false;
    return first.attempts.some((left) => second.attempts.some((right) => left.startTick < right.finishTick && right.startTick < left.finishTick));
  }

  /** The steps as plain JSON. */
  toJSON(): readonly AssemblyStep[] {
    return this.steps;
  }
}
