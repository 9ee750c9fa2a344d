import { ConfigurationError } from '../error/configuration-error.ts';

/** The keys of `AskOptions` the core reads. */
export const CORE_OPTION_KEYS: readonly string[] = Object.freeze([
  'actorId',
  'context',
  'metadata',
  'sessionId',
  'sessions',
  'history',
  'state',
  'signal',
  'deadline',
  'limits',
  'models',
  'toolRegistry',
  'capabilitySnapshot',
  'instrumentation',
  'traceContext',
  'parentOperation',
  'runtimeHooks',
  'approvalTimeout',
  '_internal',
]);

/** Option keys that belong to an optional capability, and where that capability comes from. */
const CAPABILITY_OPTION_KEYS: Readonly<Record<string, string>> = Object.freeze({
  workspace: 'workspace() from ghostlight/workspace',
  sandbox: 'sandbox() from ghostlight/sandbox',
  skillPaths: 'skills() from ghostlight/skills',
  skillResourceRoot: 'skills() from ghostlight/skills',
  subagentPath: 'subagents() from ghostlight/subagents',
});

/** What users of other SDKs reach for, and the Ghostlight option that does it. */
const EQUIVALENTS: Readonly<Record<string, string>> = Object.freeze({
  abortSignal: 'signal',
  stopWhen: 'limits (maxTurns)',
  maxSteps: 'limits (maxTurns)',
  messages: 'history',
  system: "the agent's instructions",
  tools: "the agent's tools",
  userId: 'actorId',
  threadId: 'sessionId',
  conversationId: 'sessionId',
  timeout: 'deadline',
});

/**
 * Refuses option keys nothing in the run reads, naming the closest known key,
 * so a misspelt or foreign option (`abortSignal`, `stopWhen`) never passes
 * silently. `accepted` holds the keys of the run's capabilities.
 */
export function assertKnownOptions(options: object, accepted: ReadonlySet<string>, what = 'agent.ask'): void {
  for (const key of Object.keys(options)) {
    const capability = CAPABILITY_OPTION_KEYS[key];
    if (capability && !accepted.has(key) && (options as Record<string, unknown>)[key] !== undefined) {
      throw new ConfigurationError(`The ${key} option of ${what} needs ${capability} in the agent's capabilities`);
    }
  }
  assertKnownKeys(options, [...accepted], what, EQUIVALENTS);
}

/**
 * Refuses keys of an options object that nothing reads (`ConfigurationError`
 * naming the key, the object and the closest known key, or the equivalent
 * Ghostlight option for a key other SDKs use). Undefined values pass.
 */
export function assertKnownKeys(
  options: object,
  known: readonly string[],
  what: string,
  equivalents: Readonly<Record<string, string>> = {},
): void {
  for (const key of Object.keys(options)) {
    if (known.includes(key) || (options as Record<string, unknown>)[key] === undefined) continue;
    const hint = Object.hasOwn(equivalents, key) ? equivalents[key] : closest(key, known);
    throw new ConfigurationError(`Unknown option ${key} for ${what}${hint ? ` (did you mean ${hint}?)` : ''}`);
  }
}

/** The known key nearest to `key` (case-insensitive edit distance), when it is near enough to be a misspelling. */
export function closest(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(key.length / 3)) ? best : undefined;
}

function editDistance(left: string, right: string): number {
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let row = 1; row <= left.length; row++) {
    const current = [row];
    for (let column = 1; column <= right.length; column++) {
      const cost = left[row - 1] === right[column - 1] ? 0 : 1;
      current[column] = Math.min(previous[column]! + 1, current[column - 1]! + 1, previous[column - 1]! + cost);
    }
    previous = current;
  }
  return previous[right.length]!;
}
