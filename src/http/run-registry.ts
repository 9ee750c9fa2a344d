import type { RunStream } from '../agent/agent.ts';

interface Entry {
  readonly stream: RunStream;
  readonly agent: string;
  readonly actorId: string;
  endedAt: number | undefined;
}

/**
 * The runs this isolate is serving or served recently, so a reader can
 * resume a run's event stream from a sequence number. Bounded: finished runs
 * are forgotten after `keepMs`, and the oldest go first past `maxRuns`.
 */
export class RunRegistry {
  readonly #entries = new Map<string, Entry>();
  readonly #keepMs: number;
  readonly #maxRuns: number;

  constructor(keepMs: number, maxRuns = 1_000) {
    this.#keepMs = keepMs;
    this.#maxRuns = maxRuns;
  }

  /** Remembers a started run; it is forgotten `keepMs` after it ends. */
  add(stream: RunStream, agent: string, actorId: string): void {
    this.#evict();
    const entry: Entry = { stream, agent, actorId, endedAt: undefined };
    this.#entries.set(stream.runId, entry);
    stream.run.then(
      () => (entry.endedAt = Date.now()),
      () => (entry.endedAt = Date.now()),
    );
  }

  /** The run, if this isolate still has it and `actorId` started it. */
  get(runId: string, agent: string, actorId: string): RunStream | undefined {
    this.#evict();
    const entry = this.#entries.get(runId);
    return entry && entry.agent === agent && entry.actorId === actorId ? entry.stream : undefined;
  }

  /** How many runs are remembered. */
  get size(): number {
    return this.#entries.size;
  }

  #evict(): void {
    const now = Date.now();
    for (const [runId, entry] of this.#entries) {
      if (entry.endedAt !== undefined && now - entry.endedAt > this.#keepMs) this.#entries.delete(runId);
    }
    while (this.#entries.size >= this.#maxRuns) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }
}
