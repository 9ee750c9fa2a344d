/**
 * The part of a Durable Object's `ctx.storage` the run object uses (its
 * key-value API and alarms), typed structurally so the core needs no Workers
 * type package. SQLite-backed and key-value-backed objects both provide it.
 */
export interface RunDurableObjectStorage {
  get<T = unknown>(key: string): Promise<T | undefined>;
  put(entries: Record<string, unknown>): Promise<void>;
  list<T = unknown>(options: { prefix: string; start?: string; limit?: number; reverse?: boolean }): Promise<Map<string, T>>;
  deleteAll(): Promise<void>;
  setAlarm(scheduledTime: number): Promise<void>;
}

/** The `ctx` a run Durable Object receives, as far as it uses it. */
export interface RunDurableObjectState {
  readonly storage: RunDurableObjectStorage;
}

/** Characters of JSON per stored row: a row stays below the 128 KiB value limit of key-value-backed objects even at 3 bytes a character. */
const PART_CHARS = 32_000;
/** Rows read per `list` call. */
const PAGE = 256;

/** The key of part `part` of the value stored under `prefix` and `index`: sortable, so `list` returns a value's parts in order. */
export function rowKey(prefix: string, index: number, part: number): string {
  return `${prefix}${String(index).padStart(12, '0')}:${String(part).padStart(4, '0')}`;
}

/** The rows that store `json` at `index` under `prefix`, split into parts of at most 32,000 characters. */
export function rowsOf(prefix: string, index: number, json: string): Record<string, string> {
  const rows: Record<string, string> = {};
  for (let part = 0; part * PART_CHARS < json.length || part === 0; part++) rows[rowKey(prefix, index, part)] = json.slice(part * PART_CHARS, (part + 1) * PART_CHARS);
  return rows;
}

/** The stored values under `prefix` from index `from` on, each as its JSON text with its index, in order. */
export async function* readRows(storage: RunDurableObjectStorage, prefix: string, from = 0): AsyncGenerator<{ index: number; json: string }> {
  let start = rowKey(prefix, Math.max(0, from), 0);
  let current: { index: number; json: string } | undefined;
  for (;;) {
    const page = await storage.list<string>({ prefix, start, limit: PAGE });
    for (const [key, value] of page) {
      const index = Number(key.slice(prefix.length, prefix.length + 12));
      if (current && current.index !== index) yield current;
      if (!current || current.index !== index) current = { index, json: value };
      else current.json += value;
    }
    if (page.size < PAGE) break;
    start = `${[...page.keys()].at(-1)!}\u0000`;
  }
  if (current) yield current;
}

/** The value with the highest index under `prefix`, if any. */
export async function lastRow(storage: RunDurableObjectStorage, prefix: string): Promise<{ index: number; json: string } | undefined> {
  const tail = await storage.list<string>({ prefix, reverse: true, limit: 1 });
  const key = [...tail.keys()][0];
  if (key === undefined) return undefined;
  const index = Number(key.slice(prefix.length, prefix.length + 12));
  let found: { index: number; json: string } | undefined;
  for await (const row of readRows(storage, prefix, index)) found = row;
  return found;
}
