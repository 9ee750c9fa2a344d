import { Run } from '../agent/run.ts';
import type { RunRecord, RunSummary } from '../agent/run.ts';
import type { AssemblyStep } from './trajectory.ts';
import { Trajectory } from './trajectory.ts';

/**
 * The run of a composite assembly: a {@link Run} (its `steps` are the model
 * turns of the participant that answered) and its `trajectory`, the steps the
 * assembly took.
 */
export class AssemblyRun<TOutput = unknown> extends Run<TOutput> {
  /** The steps the assembly took, with queries. */
  readonly trajectory: Trajectory;

  constructor(record: RunRecord<TOutput>, steps: readonly AssemblyStep[]) {
    super(record);
    this.trajectory = new Trajectory(steps);
  }

  /** The JSON summary of a run plus the trajectory (participants, statuses, attempts, bounded outputs). */
  override toJSON(): AssemblyRunSummary {
    return { ...super.toJSON(), trajectory: this.trajectory.steps };
  }
}

/** The JSON form of an assembly run. */
export interface AssemblyRunSummary extends RunSummary {
  trajectory: readonly AssemblyStep[];
}

/** Whether `run` is a composite's run (duck-typed across bundles). */
export function isAssemblyRun(run: unknown): run is AssemblyRun {
  return typeof run === 'object' && run !== null && (run as { trajectory?: unknown }).trajectory instanceof Object
    && Array.isArray((run as { trajectory: { steps?: unknown } }).trajectory.steps);
}
