import { describe, expect, it } from 'vitest';
import { Sandbox } from 'ghostlight/sandbox';
import { runShellCommand, SHELL_COMMANDS } from 'ghostlight/shell';
import { Workspace } from 'ghostlight/workspace';

async function shellFixture(policy: ConstructorParameters<typeof Sandbox>[0]['policy'] = { files: { root: 'read_write', docs: 'read_only' } }) {
  const workspace = await Workspace.open({ paths: { docs: 'docs', secret: 'secret' } });
  await workspace.writeFile('notes/today.md', '# Today\nbuy milk\nTODO call back\nTODO pay rent\n', { parents: true });
  await workspace.writeFile('notes/old.md', 'nothing here', { parents: true });
  await workspace.writeFile('docs/guide.md', 'guide line 1\nguide line 2\n');
  await workspace.writeFile('secret/key.txt', 'hunter2');
  await workspace.writeFile('.hidden', 'dot');
  const sandbox = new Sandbox({ workspace, policy: { ...policy, runtimePaths: { secret: 'read_only' } } });
  const sh = (...argv: string[]) => runShellCommand(sandbox, argv);
  return { workspace, sandbox, sh };
}

describe('the virtual shell', () => {
  it('knows at least the commands the issue asks for', () => {
    for (const command of ['ls', 'cat', 'head', 'tail', 'wc', 'grep', 'find', 'mkdir', 'rm', 'mv', 'cp', 'echo', 'sed']) {
      expect(SHELL_COMMANDS).toContain(command);
    }
  });

  it('lists, prints and counts', async () => {
    const { sh } = await shellFixture();
    expect((await sh('ls')).stdout).toBe('docs\nnotes\n');
    expect((await sh('ls', '-a', '-p')).stdout).toBe('.hidden\ndocs/\nnotes/\n');
    expect((await sh('ls', 'notes', 'docs')).stdout).toBe('notes:\nold.md\ntoday.md\n\ndocs:\nguide.md\n');
    expect((await sh('cat', 'docs/guide.md')).stdout).toBe('guide line 1\nguide line 2\n');
    expect((await sh('head', '-n', '2', 'notes/today.md')).stdout).toBe('# Today\nbuy milk\n');
    expect((await sh('head', '-1', 'notes/old.md')).stdout).toBe('nothing here');
    expect((await sh('tail', '-n', '1', 'notes/today.md')).stdout).toBe('TODO pay rent\n');
    expect((await sh('tail', '-n', '+3', 'notes/today.md')).stdout).toBe('TODO call back\nTODO pay rent\n');
    expect((await sh('wc', '-l', 'notes/today.md')).stdout).toBe('4 notes/today.md\n');
    expect((await sh('wc', 'notes/today.md', 'docs/guide.md')).stdout).toBe(' 4 10 46 notes/today.md\n 2  6 26 docs/guide.md\n 6 16 72 total\n');
    expect((await sh('echo', 'hello', 'world')).stdout).toBe('hello world\n');
  });

  it('searches with grep and find', async () => {
    const { sh } = await shellFixture();
    expect(await sh('grep', '-rn', 'TODO', '.')).toEqual({ stdout: './notes/today.md:3:TODO call back\n./notes/today.md:4:TODO pay rent\n', stderr: '', exitStatus: 0, success: true });
    expect((await sh('grep', '-c', 'TODO', 'notes/today.md')).stdout).toBe('2\n');
    expect((await sh('grep', '-il', 'GUIDE', '-r', 'docs', 'notes')).stdout).toBe('docs/guide.md\n');
    expect((await sh('grep', 'absent', 'notes/today.md')).exitStatus).toBe(1);
    expect((await sh('grep', 'x', 'notes')).stderr).toBe('grep: notes: Is a directory\n');
    expect((await sh('grep', '-E', '(a+)+b', 'notes/today.md')).exitStatus).toBe(1);
    expect((await sh('find', '.', '-name', '*.md', '-type', 'f')).stdout).toBe('./docs/guide.md\n./notes/old.md\n./notes/today.md\n');
    expect((await sh('find', 'notes', '-maxdepth', '0')).stdout).toBe('notes\n');
  });

  it('edits with mkdir, cp, mv, rm and sed', async () => {
    const { sh, workspace } = await shellFixture();
    expect((await sh('mkdir', '-p', 'a/b')).exitStatus).toBe(0);
    expect((await sh('cp', 'notes/old.md', 'a/b')).exitStatus).toBe(0);
    expect(await workspace.readText('a/b/old.md')).toBe('nothing here');
    expect((await sh('mv', 'a/b/old.md', 'a/renamed.md')).exitStatus).toBe(0);
    expect((await sh('cp', '-r', 'notes', 'backup')).exitStatus).toBe(0);
    expect((await sh('rm', 'a')).stderr).toBe("rm: cannot remove 'a': Is a directory\n");
    expect((await sh('rm', '-r', 'a')).exitStatus).toBe(0);
    expect(await workspace.exists('a')).toBe(false);
    expect((await sh('sed', 's/TODO/DONE/', 'notes/today.md')).stdout).toBe('# Today\nbuy milk\nDONE call back\nDONE pay rent\n');
    expect((await sh('sed', '-n', '2,3p', 'notes/today.md')).stdout).toBe('buy milk\nTODO call back\n');
    expect((await sh('sed', '-E', 's/(buy) (milk)/\\2 \\1 &/', 'notes/today.md')).stdout).toContain('milk buy buy milk');
    expect((await sh('sed', '/TODO/d', 'notes/today.md')).stdout).toBe('# Today\nbuy milk\n');
    expect((await sh('sed', '-i', 's/milk/bread/g', 'notes/today.md')).exitStatus).toBe(0);
    expect(await workspace.readText('notes/today.md')).toContain('buy bread');
    expect((await sh('touch', 'empty.txt')).exitStatus).toBe(0);
    expect(await workspace.readText('empty.txt')).toBe('');
  });

  it('honours the same grants as the filesystem tools', async () => {
    const { sh, workspace } = await shellFixture();
    expect(await sh('rm', 'docs/guide.md')).toMatchObject({ stderr: "rm: cannot remove 'docs/guide.md': Sandbox scope is read-only\n", exitStatus: 1 });
    expect((await sh('sed', '-i', 's/guide/x/', 'docs/guide.md')).stderr).toBe("sed: couldn't edit docs/guide.md: Sandbox scope is read-only\n");
    expect((await sh('cat', 'secret/key.txt')).stderr).toBe('cat: secret/key.txt: Path is outside the sandbox scope\n');
    expect((await sh('ls', 'workspace://secret')).exitStatus).toBe(2);
    expect((await sh('grep', '-r', 'hunter2', '.')).stdout).toBe('');
    expect((await sh('find', '.')).stdout).not.toContain('secret');
    expect((await sh('cp', '-r', '.', 'leak')).exitStatus).toBe(1);
    expect((await sh('mv', 'docs/guide.md', 'guide.md')).exitStatus).toBe(1);
    expect((await sh('cat', '../etc/passwd')).stderr).toBe('cat: ../etc/passwd: workspace path traversal is not allowed\n');
    expect((await sh('cat', '/etc/passwd')).stderr).toBe('cat: /etc/passwd: workspace paths must be relative or use workspace://\n');
    expect(await workspace.readText('docs/guide.md')).toBe('guide line 1\nguide line 2\n');
    expect(await workspace.readText('secret/key.txt')).toBe('hunter2');
    const readOnly = await shellFixture({ files: { root: 'read_only' } });
    expect((await readOnly.sh('mkdir', 'x')).stderr).toBe("mkdir: cannot create directory 'x': Sandbox scope is read-only\n");
  });

  it('does not interpret shell syntax and reports unknown commands with 127', async () => {
    const { sh } = await shellFixture();
    expect(await sh('ls', 'notes; rm -rf .')).toMatchObject({ exitStatus: 2, stderr: "ls: cannot access 'notes; rm -rf .': No such file or directory\n" });
    expect((await sh('echo', '$(whoami)', '*')).stdout).toBe('$(whoami) *\n');
    expect(await sh('bash', '-c', 'ls')).toEqual({ stdout: '', stderr: 'shell: bash: command not found\n', exitStatus: 127, success: false });
    expect((await sh('head', '-x', 'notes/today.md')).exitStatus).toBe(2);
  });

  it('bounds its output and refuses without process_execute', async () => {
    const workspace = await Workspace.open();
    await workspace.writeFile('big.txt', 'x'.repeat(100));
    const sandbox = new Sandbox({ workspace, limits: { outputBytes: 10 } });
    const result = await runShellCommand(sandbox, ['cat', 'big.txt']);
    expect(result.stdout).toBe('x'.repeat(10));
    expect(result.stderr).toContain('output truncated');
    await expect(runShellCommand(sandbox.scope({ capabilities: ['read', 'list'] }), ['ls'])).rejects.toThrow('Sandbox scope does not allow process execute');
  });
});
