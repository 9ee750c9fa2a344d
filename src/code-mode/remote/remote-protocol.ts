import type { CodeEngineStep } from '../code-engine.ts';

/** What the host sends a code-engine worker. */
export type HostMessage =
  | { readonly type: 'start'; readonly program: number; readonly request: RemoteRequest }
  | { readonly type: 'step'; readonly program: number; readonly deliveries: readonly RemoteDelivery[] }
  | { readonly type: 'dispose'; readonly program: number };

/** What a code-engine worker answers. */
export type WorkerMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'load-failed'; readonly error: RemoteError }
  | { readonly type: 'started'; readonly program: number }
  | { readonly type: 'start-failed'; readonly program: number; readonly error: RemoteError }
  /** Requests sent while a step still runs, so the host acts on them (and a terminated step loses none sent). */
  | { readonly type: 'events'; readonly program: number; readonly events: readonly RemoteEvent[] }
  | {
      readonly type: 'stepped';
      readonly program: number;
      readonly step: CodeEngineStep;
      /** What the program asked of the host during the step, in order, after the `events` messages already sent. */
      readonly events: readonly RemoteEvent[];
      /** Milliseconds the step ran in the worker. */
      readonly cpuMs: number;
    };

/** A program's request without its host (which stays on the host's side). */
export interface RemoteRequest {
  readonly source: string;
  readonly kind: 'script' | 'module';
  readonly tools: ReadonlyArray<{ readonly name: string; readonly description: string }>;
  readonly input: string | undefined;
  readonly limits: {
    readonly memoryBytes: number;
    readonly stackBytes: number;
    readonly cpuMs: number;
    readonly outputBytes: number;
    /** The host's pending-call limit, when it has one: a step forwards at most one call more. */
    readonly pendingCalls?: number;
  };
  readonly wallDeadline: number;
  readonly determinism?: { readonly seed: number; readonly clock: number } | undefined;
}

/** A tool result queued for the program. */
export interface RemoteDelivery {
  readonly id: number;
  readonly ok: boolean;
  readonly payload: string | undefined;
}

/** One thing a program asked of the host during a step. */
export type RemoteEvent =
  | { readonly kind: 'call'; readonly id: number; readonly name: string; readonly args: string | undefined }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'exit'; readonly value: string | undefined };

/** An error that crossed from the worker: `limit` for a `CodeLimitError`, `configuration` for a `ConfigurationError`. */
export interface RemoteError {
  readonly kind: 'limit' | 'configuration' | 'error';
  readonly message: string;
  readonly limit?: string;
}
