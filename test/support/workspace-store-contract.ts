import { expect, it } from 'vitest';
import { Workspace } from 'ghostlight/workspace';
import type { WorkspaceRecord, WorkspaceStore } from 'ghostlight/workspace';

/**
 * Runs `test` with a way to open stores by name: two stores opened with the
 * same name share the backend's durable storage (a reopen), different names
 * are isolated. The runtime decides where that storage lives.
 */
export type WorkspaceStoreBackend = <T>(test: (open: (name: string) => WorkspaceStore) => Promise<T>) => Promise<T>;

/** Records sorted by path with bytes as base64 text (deep-comparing large byte arrays element by element is slow). */
const sorted = (records: readonly WorkspaceRecord[]) =>
  [...records].sort((left, right) => (left.path < right.path ? -1 : 1)).map((record) => (record.data ? { ...record, data: base64(record.data) } : record));

function base64(data: Uint8Array): string {
  let binary = '';
  for (let index = 0; index < data.length; index += 0x8000) binary += String.fromCharCode(...data.subarray(index, index + 0x8000));
  return btoa(binary);
}
const file = (path: string, data: Uint8Array, modifiedAt = 1): WorkspaceRecord => ({ path, kind: 'file', data, modifiedAt });

/** The contract every `workspace-store-v1` backend passes. */
export function workspaceStoreContract(backend: WorkspaceStoreBackend): void {
  it('starts empty and keeps files, directories and bytes exactly', () =>
    backend(async (open) => {
      const store = open('exact');
      expect(await store.load()).toEqual([]);
      const big = new Uint8Array(250_000).map((_, index) => index % 251);
      const longPath = `${'d'.repeat(200)}/${'e'.repeat(200)}/${'f'.repeat(200)}/${'g'.repeat(200)}/${'h'.repeat(200)}/${'i'.repeat(200)}/${'j'.repeat(200)}/${'k'.repeat(200)}/${'l'.repeat(200)}/${'m'.repeat(200)}/${'n'.repeat(200)}/long.txt`;
      const records: WorkspaceRecord[] = [
        { path: 'empty-dir', kind: 'directory', modifiedAt: 5 },
        file('bytes.bin', new Uint8Array([0, 255, 128, 1])),
        file('empty.txt', new Uint8Array(0)),
        file('big.bin', big, 7),
        file('unicode-ü/名前.md', new TextEncoder().encode('héllo 👻')),
        file(longPath, new Uint8Array([42])),
      ];
      await store.commit(records.map((record) => ({ type: 'put', record })));
      expect(sorted(await open('exact').load())).toEqual(sorted(records));
    }));

  it('overwrites and deletes, leaving nothing of the old content behind', () =>
    backend(async (open) => {
      const store = open('overwrite');
      await store.commit([{ type: 'put', record: file('a.bin', new Uint8Array(250_000).fill(1)) }]);
      await store.commit([{ type: 'put', record: file('a.bin', new Uint8Array([2, 2]), 9) }]);
      expect(await open('overwrite').load()).toEqual([file('a.bin', new Uint8Array([2, 2]), 9)]);
      await store.commit([{ type: 'delete', path: 'a.bin' }, { type: 'delete', path: 'never-existed' }]);
      expect(await open('overwrite').load()).toEqual([]);
    }));

  it('applies the changes of one commit in order', () =>
    backend(async (open) => {
      const store = open('order');
      await store.commit([
        { type: 'put', record: file('x.txt', new Uint8Array([1])) },
        { type: 'delete', path: 'x.txt' },
        { type: 'put', record: file('y.txt', new Uint8Array([1])) },
        { type: 'put', record: file('y.txt', new Uint8Array([2]), 3) },
      ]);
      expect(await open('order').load()).toEqual([file('y.txt', new Uint8Array([2]), 3)]);
    }));

  it('keeps differently named stores apart', () =>
    backend(async (open) => {
      await open('left').commit([{ type: 'put', record: file('l.txt', new Uint8Array([1])) }]);
      await open('right').commit([{ type: 'put', record: file('r.txt', new Uint8Array([2])) }]);
      expect((await open('left').load()).map((record) => record.path)).toEqual(['l.txt']);
      expect((await open('right').load()).map((record) => record.path)).toEqual(['r.txt']);
    }));

  it('gives a reopened workspace everything the last one committed', () =>
    backend(async (open) => {
      let tick = 0;
      const first = await Workspace.open({ store: open('reopen'), _internal: { now: () => ++tick } });
      await first.writeFile('notes/a.md', '# A', { parents: true });
      await first.writeFile('notes/b.md', '# B');
      await first.mkdir('empty');
      await first.move('notes/b.md', 'b.md');
      await first.copy('notes', 'copy', { recursive: true });
      await first.delete('notes/a.md');
      const expected = await first.exportSnapshot();
      await first.close();
      const second = await Workspace.open({ store: open('reopen') });
      expect(await second.exportSnapshot()).toEqual(expected);
      expect(await second.readText('copy/a.md')).toBe('# A');
      await second.close();
    }));
}
