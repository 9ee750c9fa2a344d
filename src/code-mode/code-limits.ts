import { ConfigurationError } from '../error/configuration-error.ts';

/** The limits of code-mode programs. Every value is a positive integer. */
export interface CodeLimits {
  /** Source size in UTF-8 bytes (default 1,000,000). Larger programs are refused. */
  sourceBytes: number;
  /** Output of one program (`text` plus its return value) in UTF-8 bytes (default 1,000,000). */
  outputBytes: number;
  /** QuickJS heap per program (default 64 MiB); also the most argument bytes its calls in flight may hold. */
  memoryBytes: number;
  /** QuickJS stack per program (default 256 KiB, at most 384 KiB: larger stacks overflow the host first). */
  stackBytes: number;
  /**
   * CPU budget per program in milliseconds (default 10,000): the time the program runs, measured by the clock
   * where it advances and estimated from interrupt checks and charged builtin work where it is frozen (deployed
   * Workers). A program is stopped within 2 × cpuMs + 50 ms of host time (docs/code-mode.md, "Stopping programs").
   */
  cpuMs: number;
  /** Total lifetime of one program from `exec`, observed or not (default 300,000 ms). */
  wallMs: number;
  /** How long one `exec` or `wait` watches the program before answering `still_working` (default 60,000 ms). */
  observeMs: number;
  /** Programs one session (one run) may start (default 8). */
  programs: number;
  /** Tool calls one program may make (default 1,000); further calls reject inside the program. */
  toolCalls: number;
  /** Tool calls of one program that run at once (default 8); the rest wait their turn. */
  concurrency: number;
  /** Tool calls of one program started but not finished (default 256); past it the program is stopped. */
  pendingCalls: number;
  /** How long closing a session waits for tool calls a stopped program left running (default 5,000 ms). */
  cleanupMs: number;
}

/** The largest QuickJS stack that still overflows cleanly inside QuickJS (STACK.md G10). */
export const MAX_STACK_BYTES = 384 * 1024;

/** The defaults (the seeds' Ruby engine values, with edge-sized lifetimes). */
export const DEFAULT_CODE_LIMITS: Readonly<CodeLimits> = Object.freeze({
  sourceBytes: 1_000_000,
  outputBytes: 1_000_000,
  memoryBytes: 64 * 1024 * 1024,
  stackBytes: 256 * 1024,
  cpuMs: 10_000,
  wallMs: 300_000,
  observeMs: 60_000,
  programs: 8,
  toolCalls: 1_000,
  concurrency: 8,
  pendingCalls: 256,
  cleanupMs: 5_000,
});

/**
 * Fills the defaults under `layers` (later layers win). Unknown keys and
 * values that are not positive integers are a `ConfigurationError`.
 */
export function resolveCodeLimits(...layers: ReadonlyArray<Partial<CodeLimits> | undefined>): CodeLimits {
  const limits: CodeLimits = { ...DEFAULT_CODE_LIMITS };
  for (const layer of layers) {
    if (!layer) continue;
    const unknown = Object.keys(layer).filter((key) => !(key in DEFAULT_CODE_LIMITS));
    if (unknown.length > 0) throw new ConfigurationError(`unsupported code-mode limits: ${unknown.sort().join(', ')}`);
    for (const key of Object.keys(layer) as Array<keyof CodeLimits>) {
      const value = layer[key];
      if (value === undefined) continue;
      if (!Number.isInteger(value) || value < 1) throw new ConfigurationError(`code-mode limit ${key} must be a positive integer`);
      limits[key] = value;
    }
  }
  if (limits.stackBytes > MAX_STACK_BYTES) {
    throw new ConfigurationError(`code-mode limit stackBytes cannot exceed ${MAX_STACK_BYTES}`);
  }
  return limits;
}
