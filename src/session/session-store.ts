import type { ModelMessage } from 'ai';
import type { JsonObject } from '../util/json.ts';

/** What a session holds: its conversation, the run state and application metadata (JSON only). */
export interface SessionSnapshot {
  /** The persisted conversation, oldest first (never system, transient or reasoning content). */
  readonly messages: readonly ModelMessage[];
  /** The working state the last run ended with. */
  readonly state: JsonObject;
  /** Application metadata of the session. */
  readonly metadata: JsonObject;
}

/** Who is asking: the trusted actor the application authenticated (undefined only for single-actor stores). */
export interface SessionAccess {
  readonly actorId: string | undefined;
}

/** Releases a session lock. */
export type SessionRelease = () => void | Promise<void>;

/**
 * The seam between Ghostlight sessions and storage. Implementations: memory
 * (`MemorySessionStore`), IndexedDB (`ghostlight/browser`) and Durable
 * Objects (`ghostlight/cloudflare`); all pass the same contract suite.
 *
 * Rules every store keeps: reading never claims an id; the first write
 * (`append` or `replace`) with an actor claims it atomically, and any later
 * access with another actor throws `SessionActorError` ("Session actor does
 * not match"); `append` checks
 * `expectedCount` atomically and throws `ProtocolError` ("Session changed
 * while it was being updated") on a mismatch, so two writers never silently
 * lose a turn; values are stored as JSON.
 */
export interface SessionStore {
  readonly version: 'session-store-v1';
  /** The snapshot of `id`, or undefined before its first write. Never claims the id. */
  load(id: string, access: SessionAccess): Promise<SessionSnapshot | undefined>;
  /** Appends messages (and replaces state and metadata) if the stored conversation still has `expectedCount` messages. */
  append(id: string, update: SessionAppend & SessionAccess): Promise<void>;
  /** Replaces the whole snapshot. */
  replace(id: string, snapshot: SessionSnapshot & SessionAccess): Promise<void>;
  /**
   * Serialises runs of one session: resolves when the caller holds the
   * session, with the function that releases it. Rejects if `signal` aborts
   * while waiting.
   */
  lock(id: string, access: SessionAccess & { signal?: AbortSignal | undefined }): Promise<SessionRelease>;
}

/** An append to a session. */
export interface SessionAppend {
  readonly messages: readonly ModelMessage[];
  readonly state: JsonObject;
  readonly metadata: JsonObject;
  /** How many messages the caller last saw stored. */
  readonly expectedCount: number;
}
