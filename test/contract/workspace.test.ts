import { describe, expect, it } from 'vitest';
import { ConfigurationError } from 'ghostlight';
import { MemoryWorkspaceStore, snapshotFromJson, snapshotToJson, Workspace, WorkspaceError, WorkspaceLimitError } from 'ghostlight/workspace';
import type { WorkspaceChangeEvent } from 'ghostlight/workspace';

const bytes = (...values: number[]) => new Uint8Array(values);

describe('a workspace', () => {
  it('writes, reads, lists and stats files as text and bytes', async () => {
    await using workspace = await Workspace.open();
    await workspace.writeFile('notes/today.md', '# Today\n', { parents: true });
    await workspace.writeFile('data.bin', bytes(0, 255, 1));

    expect(await workspace.readText('notes/today.md')).toBe('# Today\n');
    expect(await workspace.readFile('data.bin')).toEqual(bytes(0, 255, 1));
    expect((await workspace.list()).map((entry) => [entry.name, entry.kind, entry.size])).toEqual([
      ['data.bin', 'file', 3],
      ['notes', 'directory', 1],
    ]);
    expect(await workspace.stat('notes/today.md')).toMatchObject({ name: 'today.md', reference: 'notes/today.md', kind: 'file', size: 8 });
    expect(await workspace.stat('missing.md')).toBeUndefined();
    expect(workspace.usage()).toEqual({ bytes: 11, entries: 3 });
  });

  it('keeps bytes it was given and hands out copies', async () => {
    await using workspace = await Workspace.open();
    const data = bytes(1, 2, 3);
    await workspace.writeFile('a.bin', data);
    data[0] = 9;
    const read = await workspace.readFile('a.bin');
    read[1] = 9;
    expect(await workspace.readFile('a.bin')).toEqual(bytes(1, 2, 3));
  });

  it('refuses invalid UTF-8 as text but keeps a byte-order mark', async () => {
    await using workspace = await Workspace.open();
    await workspace.writeFile('binary.dat', bytes(0xff, 0xfe, 0x00));
    await workspace.writeFile('bom.txt', bytes(0xef, 0xbb, 0xbf, 0x61));
    await expect(workspace.readText('binary.dat')).rejects.toMatchObject({ name: 'WorkspaceError', code: 'invalid-text', message: 'File is not valid UTF-8 text' });
    expect(await workspace.readText('bom.txt')).toBe('\uFEFFa');
  });

  it('addresses named paths with workspace:// and formats references back', async () => {
    const skills = new MemoryWorkspaceStore({ files: { 'refunds/SKILL.md': '# Refunds' } });
    await using workspace = await Workspace.open({ paths: { artifacts: 'artifacts', skills: { store: skills } } });
    expect(await workspace.readText('workspace://skills/refunds/SKILL.md')).toBe('# Refunds');
    await workspace.writeFile('workspace://artifacts/report.csv', 'a,b\n');
    expect(await workspace.readText('artifacts/report.csv')).toBe('a,b\n');
    expect(workspace.reference('artifacts/report.csv')).toBe('workspace://artifacts/report.csv');
    expect(workspace.reference('artifacts')).toBe('workspace://artifacts');
    expect(workspace.reference('notes/a.md')).toBe('notes/a.md');
    expect(workspace.reference('.')).toBe('.');
    expect(workspace.reference({ volume: 'skills', path: 'refunds/SKILL.md' })).toBe('workspace://skills/refunds/SKILL.md');
    expect(workspace.resolve('workspace://skills')).toEqual({ volume: 'skills', path: '' });
    expect((await workspace.list()).map((entry) => entry.name)).toEqual(['artifacts']);
  });

  it('prefers the longest named path when formatting references', async () => {
    await using workspace = await Workspace.open({ paths: { out: 'out', reports: 'out/reports' } });
    expect(workspace.reference('out/reports/q3.csv')).toBe('workspace://reports/q3.csv');
    expect(workspace.reference('out/other.csv')).toBe('workspace://out/other.csv');
  });

  it.each([
    ['/etc/passwd', 'workspace paths must be relative or use workspace://'],
    ['../secret', 'workspace path traversal is not allowed'],
    ['notes/../../secret', 'workspace path traversal is not allowed'],
    ['', 'workspace path must not be empty'],
    ['a\0b', 'Path contains a null byte'],
    ['workspace://', 'workspace path must name a configured path'],
    ['workspace://nope/x', 'workspace path must name a configured path: nope'],
    ['file:///etc/passwd', 'workspace paths must be relative or use workspace://'],
    ['C:/Windows/win.ini', 'workspace paths must be relative or use workspace://'],
    ['..\\secret', 'workspace path must not contain backslashes'],
  ])('refuses %j', async (reference, message) => {
    await using workspace = await Workspace.open();
    expect(() => workspace.resolve(reference)).toThrow(message);
    const error = (() => {
      try {
        workspace.resolve(reference);
      } catch (caught) {
        return caught;
      }
    })();
    expect(WorkspaceError.isInstance(error)).toBe(true);
  });

  it('deletes, moves and copies, refusing to remove or move named paths', async () => {
    await using workspace = await Workspace.open({ paths: { artifacts: 'artifacts' } });
    await workspace.writeFile('a/b/c.txt', 'c', { parents: true });
    await workspace.copy('a', 'copy', { recursive: true });
    await workspace.move('a/b/c.txt', 'a/c.txt');
    expect(await workspace.readText('a/c.txt')).toBe('c');
    expect(await workspace.readText('copy/b/c.txt')).toBe('c');
    await expect(workspace.delete('a')).rejects.toThrow('Directory is not empty');
    await workspace.delete('a', { recursive: true });
    expect(await workspace.exists('a')).toBe(false);
    await expect(workspace.delete('artifacts')).rejects.toThrow('Workspace paths cannot be removed');
    await expect(workspace.move('artifacts', 'elsewhere')).rejects.toThrow('Workspace paths cannot be moved');
    await expect(workspace.move('copy', 'copy/inside')).rejects.toThrow('Cannot move a directory into itself');
    await workspace.writeFile('x.txt', 'x');
    await expect(workspace.move('x.txt', 'copy')).rejects.toThrow('Destination already exists');
    await expect(workspace.writeFile('missing/x.txt', 'x')).rejects.toThrow('Write target parent does not exist');
    await expect(workspace.writeFile('x.txt/y', 'x')).rejects.toThrow('Write target parent does not exist');
    await expect(workspace.readText('copy')).rejects.toThrow('Path is not a file');
    await expect(workspace.list('x.txt')).rejects.toThrow('Path is not a directory');
    await expect(workspace.readText('nope')).rejects.toThrow('Path does not exist');
    expect(workspace.usage()).toEqual({ bytes: 2, entries: 5 });
  });

  it('enforces its storage limits with WorkspaceLimitError and changes nothing', async () => {
    await using workspace = await Workspace.open({ limits: { maxFileBytes: 10, maxTotalBytes: 15, maxEntries: 3 } });
    await expect(workspace.writeFile('big.txt', 'x'.repeat(11))).rejects.toSatisfy(WorkspaceLimitError.isInstance);
    await workspace.writeFile('a.txt', 'x'.repeat(10));
    await expect(workspace.writeFile('b.txt', 'x'.repeat(6))).rejects.toThrow('Workspace exceeds its storage limit of 15 bytes');
    await workspace.writeFile('a.txt', 'y'.repeat(10));
    await workspace.mkdir('d');
    await workspace.writeFile('d/e.txt', '');
    await expect(workspace.writeFile('f.txt', '')).rejects.toThrow('Workspace exceeds its limit of 3 entries');
    expect(workspace.usage()).toEqual({ bytes: 10, entries: 3 });
    expect(await workspace.readText('a.txt')).toBe('y'.repeat(10));
  });

  it('exports and imports a snapshot without loss, also through JSON', async () => {
    await using source = await Workspace.open({ paths: { skills: { store: new MemoryWorkspaceStore() } }, _internal: { now: () => 1_000 } });
    await source.writeFile('notes/a.md', 'a', { parents: true });
    await source.mkdir('empty');
    await source.writeFile('raw.bin', bytes(0, 1, 254, 255));
    await source.writeFile('workspace://skills/s/SKILL.md', 'skill', { parents: true });
    const snapshot = snapshotFromJson(JSON.parse(JSON.stringify(snapshotToJson(await source.exportSnapshot()))));

    await using target = await Workspace.open({ paths: { skills: { store: new MemoryWorkspaceStore() } } });
    await target.writeFile('stale.txt', 'old');
    await target.importSnapshot(snapshot);
    expect(await target.exportSnapshot()).toEqual(await source.exportSnapshot());
    expect(await target.exists('stale.txt')).toBe(false);
    expect((await target.stat('empty'))?.kind).toBe('directory');
    expect(await target.readFile('raw.bin')).toEqual(bytes(0, 1, 254, 255));
    expect((await target.stat('notes/a.md'))?.modifiedAt).toBe(1_000);
  });

  it('persists through its store: a new workspace over the same store sees every change', async () => {
    const store = new MemoryWorkspaceStore();
    const first = await Workspace.open({ store });
    await first.writeFile('a/b.txt', 'b', { parents: true });
    await first.mkdir('empty');
    await first.move('a/b.txt', 'c.txt');
    await first.close();
    await using second = await Workspace.open({ store });
    expect((await second.exportSnapshot()).volumes.root?.map((record) => record.path)).toEqual(['a', 'c.txt', 'empty']);
  });

  it('runs setup and teardown once each, teardown also after a failed setup', async () => {
    const calls: string[] = [];
    const run = { runId: 'r1', invocation: {} as never };
    const workspace = new Workspace({
      setup: async ({ workspace: opened, run: openedBy }) => {
        calls.push(`setup:${openedBy?.runId}`);
        await opened.writeFile('seed.txt', 'seeded');
      },
      teardown: ({ run: closedBy }) => void calls.push(`teardown:${closedBy?.runId}`),
    });
    expect(await workspace.open({ run })).toBe(workspace);
    await workspace.open({ run });
    expect(await workspace.readText('seed.txt')).toBe('seeded');
    await workspace.close();
    await workspace.close();
    expect(calls).toEqual(['setup:r1', 'teardown:r1']);
    await expect(workspace.readText('seed.txt')).rejects.toMatchObject({ code: 'not-open' });

    const torn: string[] = [];
    const failing = new Workspace({ setup: () => Promise.reject(new Error('setup failed')), teardown: () => void torn.push('teardown') });
    await expect(failing.open()).rejects.toThrow('setup failed');
    expect(torn).toEqual(['teardown']);
    expect(failing.alive).toBe(false);
  });

  it('rejects invalid configuration', () => {
    expect(() => new Workspace({ paths: { cache: '../cache' } })).toThrow('relative workspace path cache must remain beneath the workspace root');
    expect(() => new Workspace({ paths: { one: 'shared', two: 'shared/' } })).toThrow('workspace paths must not alias the same directory: one, two');
    expect(() => new Workspace({ paths: { here: '.' } })).toThrow('workspace paths must not alias the same directory: root, here');
    expect(() => new Workspace({ paths: { root: 'x' } })).toThrow(ConfigurationError);
    expect(() => new Workspace({ paths: { 'bad name': 'x' } })).toThrow(ConfigurationError);
    expect(() => new Workspace({ paths: { empty: '' } })).toThrow('workspace path empty must not be empty');
    expect(() => new Workspace({ setup: 'nope' as never })).toThrow('workspace setup must be callable');
    expect(() => new Workspace({ limits: { maxEntries: 0 } })).toThrow(ConfigurationError);
  });

  it('reports committed changes and defines paths after opening', async () => {
    await using workspace = await Workspace.open();
    const events: WorkspaceChangeEvent[] = [];
    const stop = workspace.onChange((event) => events.push(event));
    await workspace.definePath('artifacts', 'artifacts');
    await workspace.writeFile('workspace://artifacts/a.txt', 'a');
    await workspace.move('artifacts/a.txt', 'b.txt');
    stop();
    await workspace.delete('b.txt');
    expect(events).toEqual([
      { type: 'mkdir', references: ['workspace://artifacts'] },
      { type: 'write', references: ['workspace://artifacts/a.txt'] },
      { type: 'move', references: ['workspace://artifacts/a.txt', 'b.txt'] },
    ]);
    expect((await workspace.stat('artifacts'))?.kind).toBe('directory');
  });

  it('walks every entry depth first in name order', async () => {
    await using workspace = await Workspace.open();
    for (const path of ['b/2.txt', 'a.txt', 'b/1.txt', 'b/c/3.txt']) await workspace.writeFile(path, '', { parents: true });
    const seen: string[] = [];
    for await (const entry of workspace.walk()) seen.push(entry.reference);
    expect(seen).toEqual(['a.txt', 'b', 'b/1.txt', 'b/2.txt', 'b/c', 'b/c/3.txt']);
  });

  it('serialises concurrent writes and keeps the last one', async () => {
    await using workspace = await Workspace.open({ store: new MemoryWorkspaceStore() });
    await Promise.all(Array.from({ length: 20 }, (_, index) => workspace.writeFile('race.txt', String(index))));
    expect(await workspace.readText('race.txt')).toBe('19');
  });
});
