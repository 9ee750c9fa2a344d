import type { StoredArtifact } from './stored-artifact.ts';

/**
 * A file or medium produced by a tool (or attached to a message): inline
 * bytes, a deferred reference that an application callback resolves later,
 * or (once artifacts are enabled) a stored file with its reference.
 */
export type Artifact = InlineArtifact | DeferredArtifact | StoredArtifact;

/** An artifact whose bytes travel with it. */
export interface InlineArtifact {
  readonly kind: 'inline';
  /** The bytes. */
  readonly data: Uint8Array;
  /** The IANA media type, e.g. `text/csv` or `image/png`. */
  readonly mediaType: string;
  /** An optional file name, e.g. `report.csv`. */
  readonly name?: string;
  /** Optional JSON metadata. */
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** Where the artifact was stored, e.g. `workspace://artifacts/…`, once it is. */
  readonly reference?: string;
}

/** An artifact stored elsewhere by the application, addressed by `reference`. */
export interface DeferredArtifact {
  readonly kind: 'deferred';
  /** The application-defined reference (a key, a URL, an id). */
  readonly reference: string;
  /** The expected media type. */
  readonly mediaType: string;
  /** An optional file name. */
  readonly name?: string;
  /** Optional JSON metadata. */
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/**
 * Creates an inline artifact from bytes or text (text is encoded as UTF-8).
 *
 * @example
 * createArtifact({ data: csv, mediaType: 'text/csv', name: 'report.csv' })
 */
export function createArtifact(options: {
  data: Uint8Array | string;
  mediaType: string;
  name?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
}): InlineArtifact {
  const data = typeof options.data === 'string' ? new TextEncoder().encode(options.data) : options.data;
  return Object.freeze({
    kind: 'inline' as const,
    data,
    mediaType: options.mediaType,
    ...(options.name === undefined ? {} : { name: options.name }),
    ...(options.metadata === undefined ? {} : { metadata: Object.freeze({ ...options.metadata }) }),
  });
}

/** Creates a deferred artifact that the application resolves by `reference`. */
export function deferredArtifact(options: {
  reference: string;
  mediaType: string;
  name?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
}): DeferredArtifact {
  return Object.freeze({
    kind: 'deferred' as const,
    reference: options.reference,
    mediaType: options.mediaType,
    ...(options.name === undefined ? {} : { name: options.name }),
    ...(options.metadata === undefined ? {} : { metadata: Object.freeze({ ...options.metadata }) }),
  });
}

/** Whether `value` is an artifact made by {@link createArtifact} or {@link deferredArtifact}. */
export function isArtifact(value: unknown): value is Artifact {
  if (typeof value !== 'object' || value === null) return false;
  const kind = (value as { kind?: unknown }).kind;
  return (
    (kind === 'inline' && ArrayBuffer.isView((value as InlineArtifact).data)) ||
    ((kind === 'deferred' || kind === 'stored') && typeof (value as DeferredArtifact).reference === 'string')
  );
}
