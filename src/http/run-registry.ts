import type { RunStream } from '../agent/agent.ts';

interface Entry {
  readonly stream: RunStream;
  readonly agent: string;
  readonly actorId: string;
  readonly cancel: ((reason: string) => void) | undefined;
  endedAt: number | undefined;
}

/** Bounds of a {@link RunRegistry}. */
export interface RunRegistryLimits {
  /** Most runs remembered, all actors together. */
  readonly maxRuns: number;
  /** Most runs remembered for one actor. */
  readonly maxRunsPerActor: number;
}

/**
 * The runs this isolate is serving or served recently, so a reader can
 * resume a run's event stream from a sequence number. Bounded: finished runs
 * are forgotten after `keepMs`; past `maxRunsPerActor` an actor's own oldest
 * run goes first, and past `maxRuns` the oldest run of the actor holding the
 * most, so one client can never evict everyone else's runs.
 */
export class RunRegistry {
  readonly #entries = new Map<string, Entry>();
  readonly #perActor = new Map<string, number>();
  readonly #keepMs: number;
  readonly #limits: RunRegistryLimits;

  constructor(keepMs: number, limits: RunRegistryLimits = { maxRuns: 1_000, maxRunsPerActor: 100 }) {
    this.#keepMs = keepMs;
    this.#limits = limits;
  }

  /** Remembers a started run (and how to cancel it); it is forgotten `keepMs` after it ends. */
  add(stream: RunStream, agent: string, actorId: string, cancel?: (reason: string) => void): void {
    this.#expire();
    if ((this.#perActor.get(actorId) ?? 0) >= this.#limits.maxRunsPerActor) this.#evictOldestOf(actorId);
    if (this.#entries.size >= this.#limits.maxRuns) this.#evictOldestOf(this.#largestActor());
    const entry: Entry = { stream, agent, actorId, cancel, endedAt: undefined };
    this.#entries.set(stream.runId, entry);
    this.#perActor.set(actorId, (this.#perActor.get(actorId) ?? 0) + 1);
    stream.run.then(
      () => (entry.endedAt = Date.now()),
      () => (entry.endedAt = Date.now()),
    );
  }

  /** The run, if this isolate still has it and `actorId` started it. */
  get(runId: string, agent: string, actorId: string): RunStream | undefined {
    this.#expire();
    const entry = this.#entries.get(runId);
    return entry && entry.agent === agent && entry.actorId === actorId ? entry.stream : undefined;
  }

  /**
   * Cancels the run (`message`: its `CancelledError`'s) if this isolate has it and `actorId` started it:
   * `cancelling` while it runs, `finished` once it ended, undefined when unknown here.
   */
  cancel(runId: string, agent: string, actorId: string, reason: string): 'cancelling' | 'finished' | undefined {
    const stream = this.get(runId, agent, actorId);
    if (!stream) return undefined;
    const entry = this.#entries.get(runId)!;
    if (entry.endedAt !== undefined) return 'finished';
    entry.cancel?.(reason);
    return 'cancelling';
  }

  /** How many runs are remembered. */
  get size(): number {
    return this.#entries.size;
  }

  /** How many runs are remembered for `actorId`. */
  sizeOf(actorId: string): number {
    return this.#perActor.get(actorId) ?? 0;
  }

  #expire(): void {
    const now = Date.now();
    for (const [runId, entry] of this.#entries) {
      if (entry.endedAt !== undefined && now - entry.endedAt > this.#keepMs) this.#delete(runId, entry);
    }
  }

  #largestActor(): string {
    let largest = '';
    let most = -1;
    for (const [actorId, count] of this.#perActor) {
      if (count > most) {
        largest = actorId;
        most = count;
      }
    }
    return largest;
  }

  #evictOldestOf(actorId: string): void {
    for (const [runId, entry] of this.#entries) {
      if (entry.actorId === actorId) return this.#delete(runId, entry);
    }
  }

  #delete(runId: string, entry: Entry): void {
    this.#entries.delete(runId);
    const left = (this.#perActor.get(entry.actorId) ?? 1) - 1;
    if (left > 0) this.#perActor.set(entry.actorId, left);
    else this.#perActor.delete(entry.actorId);
  }
}
