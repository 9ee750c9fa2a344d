import { describe, expect, it } from 'vitest';
import { CapabilityError, ToolError, UseAfterDisposeError } from 'ghostlight';
import { Sandbox, SandboxLimitError } from 'ghostlight/sandbox';
import { MemoryWorkspaceStore, PolicyError, Workspace } from 'ghostlight/workspace';

async function fixture(paths: Record<string, string> = { source: 'source', home: 'home' }) {
  const workspace = await Workspace.open({ paths });
  for (const [name] of Object.entries(paths)) await workspace.writeFile(`workspace://${name}/${name}.txt`, name);
  await workspace.writeFile('root.txt', 'root');
  return workspace;
}

describe('a sandbox', () => {
  it('grants the root read-only by default', async () => {
    await using workspace = await fixture();
    const sandbox = new Sandbox({ workspace });
    expect(sandbox.writable).toBe(false);
    expect(await sandbox.read('root.txt')).toBe('root');
    await expect(sandbox.write('new.txt', 'x')).rejects.toThrow('Sandbox scope is read-only');
    expect(await workspace.exists('new.txt')).toBe(false);
  });

  it("reads, lists and writes with LittleGhost's messages", async () => {
    await using workspace = await fixture();
    const sandbox = new Sandbox({ workspace, policy: { files: { root: 'read_write', source: 'read_only' } } });
    expect(sandbox.writable).toBe(true);
    expect(await sandbox.list()).toBe('home/\nroot.txt\nsource/');
    expect(await sandbox.list('workspace://source')).toBe('source.txt');
    expect(await sandbox.write('new.md', 'yes')).toBe('Wrote 3 bytes to new.md');
    expect(await sandbox.write('source/../x', 'no').catch((error: Error) => error.message)).toBe('workspace path traversal is not allowed');
    await expect(sandbox.write('workspace://source/new.md', 'no')).rejects.toThrow('Sandbox scope is read-only');
    await expect(sandbox.write('source/new.md', 'no')).rejects.toThrow('Sandbox scope is read-only');
    await expect(sandbox.write('missing/new.md', 'no')).rejects.toThrow('Write target parent does not exist');
    await expect(sandbox.read('missing.md')).rejects.toThrow('Path does not exist');
    await expect(sandbox.read('source')).rejects.toThrow('Path must identify a sandbox entry');
    await workspace.mkdir('folder');
    await expect(sandbox.read('folder')).rejects.toThrow('Path is not a file');
    await expect(sandbox.read('.')).rejects.toThrow('Path must identify a sandbox entry');
    await expect(sandbox.read('workspace://source')).rejects.toThrow('Path must identify a sandbox entry');
    await expect(sandbox.list('root.txt')).rejects.toThrow('Path is not a directory');
    await expect(sandbox.list('nowhere')).rejects.toThrow('Path does not exist');
    await expect(sandbox.read('a\0b')).rejects.toThrow('Path contains a null byte');
    expect(await workspace.exists('workspace://source/new.md')).toBe(false);
  });

  it('replaces exactly one occurrence', async () => {
    await using workspace = await fixture();
    const sandbox = new Sandbox({ workspace, policy: { files: { root: 'read_write', source: 'read_only' } } });
    await sandbox.write('note.txt', 'hello hello world $& $1');
    await expect(sandbox.replace('note.txt', '', 'x')).rejects.toThrow('Text to replace cannot be empty');
    await expect(sandbox.replace('note.txt', 'absent', 'x')).rejects.toThrow('Text was not found in note.txt');
    await expect(sandbox.replace('note.txt', 'hello', 'x')).rejects.toThrow('Text occurs more than once in note.txt');
    expect(await sandbox.replace('./note.txt', 'world', '$&-$1')).toBe('Wrote 23 bytes to note.txt');
    expect(await sandbox.read('note.txt')).toBe('hello hello $&-$1 $& $1');
    await expect(sandbox.replace('workspace://source/source.txt', 'source', 'x')).rejects.toThrow('Sandbox scope is read-only');
  });

  it('never shows runtime-only paths to tools, but the runtime view reaches them', async () => {
    await using workspace = await fixture({ source: 'source', home: 'home', external: 'external' });
    const sandbox = new Sandbox({
      workspace,
      policy: { files: { root: 'read_write', source: 'read_only' }, runtimePaths: { home: 'read_write' } },
    });
    expect(await sandbox.list()).toBe('external/\nroot.txt\nsource/');
    await expect(sandbox.read('workspace://home/home.txt')).rejects.toThrow('Path is outside the sandbox scope');
    await expect(sandbox.read('home/home.txt')).rejects.toThrow('Path is outside the sandbox scope');
    await expect(sandbox.list('home')).rejects.toThrow('Path is outside the sandbox scope');
    await expect(sandbox.write('home/x.txt', 'x')).rejects.toThrow('Path is outside the sandbox scope');
    expect(await sandbox.glob('**')).not.toContain('home/');
    expect((await sandbox.grep('home', { fixedStrings: true })).matches).toEqual([]);
    await expect(sandbox.copy('.', 'copied', { recursive: true })).rejects.toThrow('Path is outside the sandbox scope');
    const runtime = sandbox.runtimeView();
    expect(await runtime.read('workspace://home/home.txt')).toBe('home');
    expect(await runtime.write('workspace://home/state.json', '{}')).toBe('Wrote 2 bytes to workspace://home/state.json');
  });

  it('lists only the granted children of a directory no grant covers', async () => {
    await using workspace = await fixture();
    const sandbox = new Sandbox({ workspace, policy: { files: { source: 'read_only' } } });
    expect(await sandbox.list()).toBe('source/');
    await expect(sandbox.read('root.txt')).rejects.toThrow('Path is outside the sandbox scope');
    await expect(sandbox.list('home')).rejects.toThrow('Path is outside the sandbox scope');
  });

  it('rejects invalid policies, limits and capabilities with PolicyError', async () => {
    await using workspace = await fixture();
    expect(() => new Sandbox({ workspace, policy: { files: { root: 'execute' as never } } })).toThrow(PolicyError);
    expect(() => new Sandbox({ workspace, policy: { files: { nope: 'read_only' } } })).toThrow('sandbox grant names an unknown workspace path: nope');
    expect(() => new Sandbox({ workspace, policy: { mounts: [] } as never })).toThrow('unknown sandbox policy options: mounts');
    expect(() => new Sandbox({ workspace, limits: { readBytes: 0 } })).toThrow('sandbox readBytes must be positive');
    expect(() => new Sandbox({ workspace, limits: { reads: 1 } as never })).toThrow('unknown sandbox limits: reads');
    expect(() => new Sandbox({ workspace, limits: { readBytes: 1.5 } })).toThrow('sandbox readBytes must be an integer');
    expect(() => new Sandbox({ workspace, capabilities: ['teleport'] })).toThrow('unknown sandbox capability: teleport');
  });

  it('enforces per-operation limits with SandboxLimitError', async () => {
    await using workspace = await fixture();
    const sandbox = new Sandbox({ workspace, policy: { files: { root: 'read_write' } }, limits: { readBytes: 5, writeBytes: 4, listEntries: 3 } });
    await workspace.writeFile('big.txt', '123456');
    const read = await sandbox.read('big.txt').catch((error: unknown) => error);
    expect(SandboxLimitError.isInstance(read) && read.message).toBe('File exceeds the read limit');
    await expect(sandbox.write('x.txt', '12345')).rejects.toThrow('Content exceeds the write limit');
    await expect(sandbox.list()).rejects.toThrow('Directory exceeds the listing limit');
    await expect(sandbox.glob('**')).rejects.toThrow('Search exceeds the listing limit');
    expect(await workspace.exists('x.txt')).toBe(false);
  });

  it('closes: later operations through it or its scopes throw UseAfterDisposeError', async () => {
    await using workspace = await fixture();
    const sandbox = new Sandbox({ workspace });
    const scope = sandbox.scope();
    await sandbox.close();
    expect(sandbox.alive).toBe(false);
    await expect(scope.read('root.txt')).rejects.toSatisfy(UseAfterDisposeError.isInstance);
  });
});

describe('a sandbox scope', () => {
  it('narrows named paths without promoting runtime paths', async () => {
    await using workspace = await fixture();
    const sandbox = new Sandbox({ workspace, policy: { files: { root: 'read_write', source: 'read_only' }, runtimePaths: { home: 'read_write' } } });
    const scope = sandbox.scope({ files: ['source'], runtimePaths: [] });
    expect(await scope.read('workspace://source/source.txt')).toBe('source');
    await expect(scope.read('workspace://home/home.txt')).rejects.toThrow(ToolError);
    await expect(scope.write('workspace://source/new.md', 'no')).rejects.toThrow(ToolError);
    await expect(scope.read('root.txt')).rejects.toThrow('Path is outside the sandbox scope');
    expect(scope.writable).toBe(false);
  });

  it('downgrades read_write to read_only and drops capabilities (C.48)', async () => {
    await using workspace = await fixture();
    const sandbox = new Sandbox({ workspace, policy: { files: { root: 'read_write', source: 'read_write' } } });
    const reviewer = sandbox.scope({ files: { source: 'read_only' }, capabilities: ['filesystem_read', 'filesystem_list'] });
    expect(await reviewer.read('workspace://source/source.txt')).toBe('source');
    await expect(reviewer.write('workspace://source/new.md', 'no')).rejects.toThrow('Sandbox scope does not allow filesystem write');
    expect(reviewer.writable).toBe(false);
    const nested = sandbox.scope({ files: { source: 'read_only' } }).scope({ files: ['source'] });
    await expect(nested.write('workspace://source/new.md', 'no')).rejects.toThrow('Sandbox scope is read-only');
    const listOnly = sandbox.scope({ capabilities: ['list'] });
    await expect(listOnly.read('root.txt')).rejects.toThrow('Sandbox scope does not allow filesystem read');
    expect(await listOnly.list('source')).toBe('source.txt');
  });

  it('can never widen its parent (CapabilityError)', async () => {
    await using workspace = await fixture();
    const sandbox = new Sandbox({ workspace, policy: { files: { source: 'read_only' }, runtimePaths: { home: 'read_write' } } });
    const widen = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return CapabilityError.isInstance(error) ? error.message : `not a CapabilityError: ${String(error)}`;
      }
      return 'no error';
    };
    expect(widen(() => sandbox.scope({ files: ['root'] }))).toBe('sandbox scope cannot expose a path outside its parent');
    expect(widen(() => sandbox.scope({ files: { source: 'read_write' } }))).toBe('sandbox scope cannot make a read-only mount writable');
    expect(widen(() => sandbox.scope({ files: { home: 'read_only' } }))).toBe('sandbox scope cannot expose a path outside its parent');
    expect(widen(() => sandbox.scope({ runtimePaths: { source: 'read_only' } }))).toBe('sandbox scope cannot expose a path outside its parent');
    const narrow = sandbox.scope({ capabilities: ['filesystem_read'] });
    expect(widen(() => narrow.scope({ capabilities: ['filesystem_read', 'filesystem_write'] }))).toBe('sandbox scope cannot add capability filesystem_write');
    const readOnly = sandbox.scope({ files: ['source'], runtimePaths: [] });
    expect(widen(() => readOnly.scope({ runtimePaths: ['home'] }))).toBe('sandbox scope cannot expose a path outside its parent');
  });

  it('keeps restrictive grants beneath a writable selection (overlays)', async () => {
    await using workspace = await fixture();
    const sandbox = new Sandbox({ workspace, policy: { files: { root: 'read_write', source: 'read_only' }, runtimePaths: { home: 'read_write' } } });
    const scope = sandbox.scope({ files: ['root'], runtimePaths: [] });
    await expect(scope.write('source/new.md', 'no')).rejects.toThrow('Sandbox scope is read-only');
    await expect(scope.read('home/home.txt')).rejects.toThrow('Path is outside the sandbox scope');
    await expect(scope.delete('source', { recursive: true })).rejects.toThrow('Sandbox scope is read-only');
    expect(await scope.write('free.txt', 'ok')).toBe('Wrote 2 bytes to free.txt');
    expect(() => scope.scope({ files: { source: 'read_write' } })).toThrow(CapabilityError);
  });

  it('nested scopes keep the parent access and visibility of dual grants', async () => {
    await using workspace = await fixture({ shared: 'shared' });
    const sandbox = new Sandbox({ workspace, policy: { files: { shared: 'read_write' }, runtimePaths: { shared: 'read_only' } } });
    const parent = sandbox.scope({ files: ['shared'], runtimePaths: ['shared'] });
    for (const nested of [parent.scope({ files: [], runtimePaths: ['shared'] }), parent.scope({ files: [], runtimePaths: { shared: 'read_only' } })]) {
      await expect(nested.read('workspace://shared/shared.txt')).rejects.toThrow(ToolError);
      expect(await nested.runtimeView().read('workspace://shared/shared.txt')).toBe('shared');
      await expect(nested.runtimeView().write('workspace://shared/x', 'x')).rejects.toThrow('Sandbox scope is read-only');
    }
  });

  it('selects named profiles and rejects unknown ones', async () => {
    await using workspace = await fixture();
    const sandbox = new Sandbox({
      workspace,
      policy: { files: { root: 'read_write', source: 'read_only' } },
      profiles: { reviewer: { files: ['source'], capabilities: ['read', 'list'] }, computed: ({ policy }) => ({ files: Object.keys(policy.files ?? {}) }) },
    });
    expect(await sandbox.scope('reviewer').read('workspace://source/source.txt')).toBe('source');
    expect(sandbox.scope('reviewer').capabilities).toEqual(['filesystem_read', 'filesystem_list']);
    expect(sandbox.scope('computed').writable).toBe(true);
    expect(() => sandbox.scope('nope')).toThrow('unknown sandbox scope profile: nope');
  });

  it('reaches mounted volumes through their grants', async () => {
    const skills = new MemoryWorkspaceStore({ files: { 'a/SKILL.md': '# A' } });
    await using workspace = await Workspace.open({ paths: { skills: { store: skills } } });
    const sandbox = new Sandbox({ workspace, policy: { files: { root: 'read_write', skills: 'read_only' } } });
    expect(await sandbox.read('workspace://skills/a/SKILL.md')).toBe('# A');
    expect(await sandbox.list('workspace://skills')).toBe('a/');
    await expect(sandbox.write('workspace://skills/a/SKILL.md', 'x')).rejects.toThrow('Sandbox scope is read-only');
    await expect(sandbox.move('workspace://skills/a/SKILL.md', 'stolen.md')).rejects.toThrow('Sandbox scope is read-only');
    expect(await sandbox.copy('workspace://skills/a/SKILL.md', 'copy.md')).toBe('Copied workspace://skills/a/SKILL.md to copy.md');
  });
});
