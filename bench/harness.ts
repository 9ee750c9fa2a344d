/** What one benchmark file reports: a titled Markdown section for BENCHMARKS.md. */
export interface BenchSection {
  /** A stable key (the section's marker in BENCHMARKS.md). */
  key: string;
  /** The section heading. */
  title: string;
  /** The Markdown body: tables and notes, figures from this run. */
  markdown: string;
}

/** Runs `task` `iterations` times after `warmup` runs and returns each duration in milliseconds. */
export async function sample(task: () => Promise<unknown>, iterations: number, warmup = 2): Promise<number[]> {
  for (let index = 0; index < warmup; index++) await task();
  const durations: number[] = [];
  for (let index = 0; index < iterations; index++) {
    const started = performance.now();
    await task();
    durations.push(performance.now() - started);
  }
  return durations;
}

/** The median of numbers. */
export function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Formats milliseconds with a sensible precision. */
export function ms(value: number): string {
  return value >= 100 ? `${value.toFixed(0)} ms` : value >= 1 ? `${value.toFixed(2)} ms` : `${(value * 1000).toFixed(1)} µs`;
}

/** Runs `gc` when the process was started with `--expose-gc`. */
export function collectGarbage(): boolean {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return false;
  gc();
  gc();
  return true;
}
