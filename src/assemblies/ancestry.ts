import type { AskOptions } from '../agent/invocation.ts';

/** The composites a nested run is inside, carried on the ask options under a symbol (agents never read it). */
const ANCESTRY = Symbol.for('ghostlight.assemblies.ancestry');

type WithAncestry = AskOptions & { [ANCESTRY]?: readonly object[] };

/** The composites the run asked with `options` is inside. */
export function ancestryOf(options: AskOptions): readonly object[] {
  return (options as WithAncestry)[ANCESTRY] ?? [];
}

/** `options` carrying `ancestry` (not enumerable, so copies and JSON leave it out). */
export function withAncestry<T extends AskOptions>(options: T, ancestry: readonly object[]): T {
  Object.defineProperty(options, ANCESTRY, { value: ancestry, enumerable: false });
  return options;
}
