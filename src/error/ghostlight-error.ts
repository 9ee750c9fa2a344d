const marker = Symbol.for('ghostlight.error');

/**
 * The realm-independent marker of one error class. Instances of a subclass
 * carry the markers of every ancestor, so `isInstance` also matches them.
 */
export function errorMarker(name: string): symbol {
  return Symbol.for(`ghostlight.error.${name}`);
}

/** Builds a cross-realm `isInstance` guard from a class marker. */
export function markerGuard<T>(classMarker: symbol): (error: unknown) => error is T {
  return (error: unknown): error is T =>
    typeof error === 'object' && error !== null && classMarker in error;
}

/** Options shared by every Ghostlight error. */
export interface GhostlightErrorOptions {
  /** The human-readable message. */
  message: string;
  /** The error that caused this one, if any. */
  cause?: unknown;
}

/**
 * The base class of every error Ghostlight throws.
 *
 * Use the static `isInstance` guards rather than `instanceof`: they keep
 * working across duplicate package copies and realms (a Worker and its tests,
 * an iframe, two bundles). Every subclass sets a literal `name` that survives
 * minification.
 */
export class GhostlightError extends Error {
  readonly [marker] = true;
  override readonly name: string = 'GhostlightError';

  constructor({ message, cause }: GhostlightErrorOptions) {
    super(message, cause === undefined ? undefined : { cause });
  }

  /** Whether `error` is any Ghostlight error. */
  static isInstance(error: unknown): error is GhostlightError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
