/**
 * The parts of the Workers runtime the Durable Object session store uses,
 * typed structurally so the core needs no Workers type package.
 */
export interface DurableObjectStorageLike {
  get<T = unknown>(key: string): Promise<T | undefined>;
  put(entries: Record<string, unknown>): Promise<void>;
  delete(keys: string[]): Promise<number>;
  list<T = unknown>(options: { prefix: string; start?: string; limit?: number }): Promise<Map<string, T>>;
}

/** The `state` (or `ctx`) a Durable Object class receives. */
export interface DurableObjectStateLike {
  readonly storage: DurableObjectStorageLike;
}

/** A stub: how a Worker talks to one object. */
export interface DurableObjectStubLike {
  fetch(input: Request | string, init?: RequestInit): Promise<Response>;
}

/** A Durable Object namespace binding. */
export interface DurableObjectNamespaceLike {
  idFromName(name: string): unknown;
  get(id: never): DurableObjectStubLike;
}
