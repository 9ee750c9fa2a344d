import type { ModelMessage } from 'ai';
import { GhostlightError } from '../error/ghostlight-error.ts';
import { ProtocolError } from '../error/protocol-error.ts';
import { SessionStoreError } from '../session/session-errors.ts';
import type { SessionSnapshot, SessionStore } from '../session/session-store.ts';
import { isPlainObject } from '../util/json.ts';
import type { JsonObject } from '../util/json.ts';
import { Semaphore } from '../util/semaphore.ts';
import { sha256Hex } from '../util/sha256.ts';
import { isImmediateChild } from './agent-path.ts';

/** The registry format this package writes and reads. */
export const REGISTRY_VERSION = 1;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** One persisted identity, as the registry records it. */
export interface RegistryRecord {
  readonly subagentId: string;
  readonly conversationId: string;
  readonly kind: string;
  readonly latestTurn: number;
  readonly updatedAt: string;
  /** How many messages of the conversation are committed (later ones belong to a turn that never committed). */
  readonly messageCount: number;
  readonly commitId: string;
  readonly commitSlot: 0 | 1;
}

/** What a restored identity continues from. */
export interface RestoredConversation {
  readonly history: ModelMessage[];
  readonly state: JsonObject;
}

/** The pseudonymous link between a parent conversation and its subagents: SHA-256 of `actorId \0 sessionId`. */
export function parentLink(actorId: string | undefined, sessionId: string): Promise<string> {
  return sha256Hex(`${actorId ?? ''}\u0000${sessionId}`);
}

/** The session id of the registry of a parent conversation's subagents. */
export function registrySessionId(link: string): string {
  return `ghostlight_subagent_registry_${link}`;
}

/** The session id of one subagent's committed conversation. */
export function conversationSessionId(conversationId: string): string {
  return `ghostlight_subagent_conversation_${conversationId}`;
}

/** The session id of one of a conversation's two alternating committed-state slots. */
export function commitSessionId(conversationId: string, slot: 0 | 1): string {
  return `ghostlight_subagent_commit_${conversationId}_${slot}`;
}

/**
 * The subagents of one parent conversation in its run's session store, in
 * framework-owned sessions of the same actor: a registry (identity → kind,
 * conversation, committed message count, commit), each conversation's compact
 * transcript (task, interjection exchanges, response), and its working state
 * in two alternating commit slots. A turn commits in that order and becomes
 * visible only when the registry points at it, so a turn that fails anywhere
 * commits nothing; a conversation left longer than its committed count is cut
 * back when it is next restored. Every session's metadata names the parent
 * link, so a session written by anything else is refused.
 */
export class SubagentPersistence {
  readonly #store: SessionStore;
  readonly #actorId: string | undefined;
  readonly #link: string;
  readonly #parentPath: string;
  readonly #registryWrites = new Semaphore(1);

  constructor(options: { store: SessionStore; actorId: string | undefined; link: string; parentPath: string }) {
    this.#store = options.store;
    this.#actorId = options.actorId;
    this.#link = options.link;
    this.#parentPath = options.parentPath;
  }

  /** The registry session's id. */
  get registryId(): string {
    return registrySessionId(this.#link);
  }

  /** The registered identities (malformed or foreign records are skipped), newest first. */
  async loadRegistry(): Promise<RegistryRecord[]> {
    const registry = await this.#registryState();
    const records: RegistryRecord[] = [];
    for (const [subagentId, record] of Object.entries(registry.conversations)) {
      const checked = this.#checkRecord(subagentId, record);
      if (checked) records.push(checked);
    }
    return records.sort(newestFirst);
  }

  /** The committed history and state of a registered conversation, repairing a transcript left longer by a failed commit. */
  async restore(record: RegistryRecord): Promise<RestoredConversation> {
    const conversationId = conversationSessionId(record.conversationId);
    const conversation = await this.#load(conversationId, this.#conversationMetadata(record.conversationId));
    const commit = await this.#load(commitSessionId(record.conversationId, record.commitSlot), this.#commitMetadata(record.conversationId, record.commitId, record.messageCount));
    if (!commit) throw new ProtocolError('Subagent committed state snapshot is missing');
    const messages = conversation?.messages ?? [];
    if (messages.length < record.messageCount) throw new ProtocolError('Subagent conversation is shorter than its committed boundary');
    const history = messages.slice(0, record.messageCount);
    if (messages.length !== record.messageCount) {
      await this.#guard('repairing', () =>
        this.#store.replace(conversationId, { actorId: this.#actorId, messages: history, state: {}, metadata: this.#conversationMetadata(record.conversationId) }),
      );
    }
    return { history: [...history], state: commit.state };
  }

  /**
   * Commits one finished turn: appends its messages to the transcript, writes
   * the state into the slot the registry does not point at, then points the
   * registry at both. Returns the new registry record.
   */
  async commit(turn: {
    readonly subagentId: string;
    readonly conversationId: string;
    readonly kind: string;
    readonly turn: number;
    readonly updatedAt: string;
    readonly committedCount: number;
    readonly commitSlot: 0 | 1;
    readonly messages: readonly ModelMessage[];
    readonly state: JsonObject;
    /** Which kinds may stay registered (persisting kinds), and how many identities at most. */
    readonly retain: { kinds: ReadonlySet<string>; max: number };
  }): Promise<RegistryRecord> {
    const conversationId = conversationSessionId(turn.conversationId);
    await this.#guard('saving', () =>
      this.#store.append(conversationId, {
        actorId: this.#actorId,
        messages: turn.messages,
        state: {},
        metadata: this.#conversationMetadata(turn.conversationId),
        expectedCount: turn.committedCount,
      }),
    );
    const messageCount = turn.committedCount + turn.messages.length;
    const commitId = crypto.randomUUID();
    const commitSlot: 0 | 1 = turn.commitSlot === 0 ? 1 : 0;
    await this.#guard('saving', () =>
      this.#store.replace(commitSessionId(turn.conversationId, commitSlot), {
        actorId: this.#actorId,
        messages: [],
        state: turn.state,
        metadata: this.#commitMetadata(turn.conversationId, commitId, messageCount),
      }),
    );
    const record: RegistryRecord = {
      subagentId: turn.subagentId,
      conversationId: turn.conversationId,
      kind: turn.kind,
      latestTurn: turn.turn,
      updatedAt: turn.updatedAt,
      messageCount,
      commitId,
      commitSlot,
    };
    await this.#registryWrites.run(async () => {
      const registry = await this.#registryState();
      registry.conversations[record.subagentId] = toJson(record);
      const retained = Object.entries(registry.conversations)
        .map(([subagentId, value]) => this.#checkRecord(subagentId, value))
        .filter((value): value is RegistryRecord => value !== undefined && turn.retain.kinds.has(value.kind))
        .sort(newestFirst)
        .slice(0, turn.retain.max);
      const state = { version: REGISTRY_VERSION, conversations: Object.fromEntries(retained.map((value) => [value.subagentId, toJson(value)])) };
      await this.#guard('saving', () => this.#store.replace(this.registryId, { actorId: this.#actorId, messages: [], state, metadata: this.#registryMetadata() }));
    });
    return record;
  }

  async #registryState(): Promise<{ version: number; conversations: Record<string, JsonObject> }> {
    const snapshot = await this.#load(this.registryId, this.#registryMetadata());
    const state = snapshot?.state;
    if (!state || state.version !== REGISTRY_VERSION || !isPlainObject(state.conversations)) return { version: REGISTRY_VERSION, conversations: {} };
    return { version: REGISTRY_VERSION, conversations: { ...(state.conversations as Record<string, JsonObject>) } };
  }

  async #load(id: string, expected: JsonObject): Promise<SessionSnapshot | undefined> {
    const snapshot = await this.#guard('loading', () => this.#store.load(id, { actorId: this.#actorId }));
    if (snapshot === undefined || snapshot === null) return undefined;
    const metadata = isPlainObject(snapshot.metadata) ? snapshot.metadata : {};
    if (!isPlainObject(snapshot.state) || Object.entries(expected).some(([key, value]) => metadata[key] !== value)) {
      throw new ProtocolError('Subagent session metadata does not match its parent conversation');
    }
    return snapshot;
  }

  #checkRecord(subagentId: string, value: unknown): RegistryRecord | undefined {
    if (!isImmediateChild(subagentId, this.#parentPath) || !isPlainObject(value)) return undefined;
    const { conversation_id, kind, latest_turn, updated_at, message_count, commit_id, commit_slot } = value;
    if (typeof conversation_id !== 'string' || !UUID.test(conversation_id)) return undefined;
    if (typeof commit_id !== 'string' || !UUID.test(commit_id)) return undefined;
    if (typeof kind !== 'string' || !isPositiveInteger(latest_turn) || !isPositiveInteger(message_count)) return undefined;
    if (commit_slot !== 0 && commit_slot !== 1) return undefined;
    if (typeof updated_at !== 'string' || Number.isNaN(Date.parse(updated_at))) return undefined;
    return { subagentId, conversationId: conversation_id, kind, latestTurn: latest_turn, updatedAt: updated_at, messageCount: message_count, commitId: commit_id, commitSlot: commit_slot };
  }

  #registryMetadata(): JsonObject {
    return { ghostlight_kind: 'subagent_registry', ghostlight_parent_link: this.#link };
  }

  #conversationMetadata(conversationId: string): JsonObject {
    return { ghostlight_kind: 'subagent_conversation', ghostlight_parent_link: this.#link, ghostlight_conversation_id: conversationId };
  }

  #commitMetadata(conversationId: string, commitId: string, messageCount: number): JsonObject {
    return {
      ghostlight_kind: 'subagent_commit',
      ghostlight_parent_link: this.#link,
      ghostlight_conversation_id: conversationId,
      ghostlight_commit_id: commitId,
      ghostlight_message_count: messageCount,
    };
  }

  async #guard<T>(doing: string, operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if (GhostlightError.isInstance(error)) throw error;
      throw new SessionStoreError(`The session store failed while ${doing} a subagent conversation`, { cause: error });
    }
  }
}

function toJson(record: RegistryRecord): JsonObject {
  return {
    conversation_id: record.conversationId,
    kind: record.kind,
    latest_turn: record.latestTurn,
    updated_at: record.updatedAt,
    message_count: record.messageCount,
    commit_id: record.commitId,
    commit_slot: record.commitSlot,
  };
}

function newestFirst(left: RegistryRecord, right: RegistryRecord): number {
  return compareNewest(left.updatedAt, left.subagentId, right.updatedAt, right.subagentId);
}

/** Orders (updatedAt, subagentId) pairs newest first. */
export function compareNewest(leftAt: string, leftId: string, rightAt: string, rightId: string): number {
  if (leftAt !== rightAt) return leftAt < rightAt ? 1 : -1;
  return leftId < rightId ? 1 : leftId > rightId ? -1 : 0;
}

function isPositiveInteger(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) > 0;
}
