import { describe, expect, it } from 'vitest';
import { defineAgent, ToolError } from 'ghostlight';
import { filesystemTools } from 'ghostlight/filesystem-tools';
import { Sandbox, sandbox as sandboxCapability } from 'ghostlight/sandbox';
import { runShellCommand } from 'ghostlight/shell';
import { MemoryWorkspaceStore, Workspace, workspace as workspaceCapability } from 'ghostlight/workspace';
import { scriptedModel } from '../support/scripted-model';

/** Paths no operation may accept: malformed, escaping, or naming what does not exist. */
const INVALID = [
  '../x',
  '../../etc/passwd',
  'a/../../x',
  './../x',
  'notes/../../../x',
  'docs/../../secret/key.txt',
  '/etc/passwd',
  '/',
  '//etc/passwd',
  'C:/Windows/win.ini',
  'C:\\Windows\\win.ini',
  '\\\\server\\share\\x',
  '..\\..\\x',
  'file:///etc/passwd',
  'https://example.com/x',
  '%2e%2e/x',
  '%2e%2e%2fx',
  '..%2fx',
  '..%5cx',
  'a%2f..%2f..%2fx',
  '%00',
  'a\0b',
  '\0',
  'docs/guide.md\0.txt',
  'a\nb',
  'a\rb',
  '\u007f',
  'a'.repeat(256),
  'a/'.repeat(2_100),
  '',
  'workspace://',
  'workspace://../x',
  'workspace:///etc/passwd',
  'workspace://nope/x',
  'workspace://docs/../secret/key.txt',
  'workspace://docs%2f..%2fsecret',
  'workspace://skills/%2e%2e/x',
];

/** Paths that exist but are runtime-only: tools must neither see nor touch them. */
const HIDDEN = ['secret/key.txt', 'workspace://secret/key.txt', 'secret', 'workspace://secret', 'secret/new.txt'];

/** Paths inside read-only grants: readable where they exist, never writable. */
const READ_ONLY = ['docs/guide.md', 'docs/new.md', 'workspace://docs/guide.md', 'docs', 'workspace://skills/a/SKILL.md', 'workspace://skills/a', 'workspace://skills/new.md'];

async function corpusFixture() {
  const skills = new MemoryWorkspaceStore({ files: { 'a/SKILL.md': '# Skill' } });
  const workspace = await Workspace.open({ paths: { docs: 'docs', secret: 'secret', skills: { store: skills } } });
  await workspace.writeFile('root.txt', 'root');
  await workspace.writeFile('docs/guide.md', 'guide');
  await workspace.writeFile('secret/key.txt', 'hunter2');
  const sandbox = new Sandbox({
    workspace,
    policy: { files: { root: 'read_write', docs: 'read_only', skills: 'read_only' }, runtimePaths: { secret: 'read_write' } },
  });
  return { workspace, sandbox, before: await workspace.exportSnapshot() };
}

async function refused(operation: () => Promise<unknown>): Promise<string> {
  try {
    await operation();
  } catch (error) {
    if (ToolError.isInstance(error)) return error.message;
    throw error;
  }
  return 'ACCEPTED';
}

describe('the adversarial path corpus', () => {
  it('refuses every operation on invalid, escaping and unknown paths, and changes nothing', async () => {
    const { workspace, sandbox, before } = await corpusFixture();
    for (const path of [...INVALID, ...HIDDEN]) {
      const operations: Array<[string, () => Promise<unknown>]> = [
        ['read', () => sandbox.read(path)],
        ['readBytes', () => sandbox.readBytes(path)],
        ['list', () => sandbox.list(path)],
        ['stat', () => sandbox.stat(path)],
        ['write', () => sandbox.write(path, 'pwned')],
        ['replace', () => sandbox.replace(path, 'hunter2', 'pwned')],
        ['mkdir', () => sandbox.mkdir(path, { parents: true })],
        ['delete', () => sandbox.delete(path, { recursive: true })],
        ['move from', () => sandbox.move(path, 'moved')],
        ['move to', () => sandbox.move('root.txt', path)],
        ['copy from', () => sandbox.copy(path, 'copied', { recursive: true })],
        ['copy to', () => sandbox.copy('root.txt', path)],
        ['glob', () => sandbox.glob('**', { path })],
        ['grep', () => sandbox.grep('.', { path })],
      ];
      for (const [name, operation] of operations) {
        expect(await refused(operation), `${name} ${JSON.stringify(path.slice(0, 40))}`).not.toBe('ACCEPTED');
      }
    }
    expect(await workspace.exportSnapshot()).toEqual(before);
  });

  it('never writes through a read-only grant, while reads there still work', async () => {
    const { workspace, sandbox, before } = await corpusFixture();
    for (const path of READ_ONLY) {
      const mutations: Array<[string, () => Promise<unknown>]> = [
        ['write', () => sandbox.write(path, 'pwned')],
        ['replace', () => sandbox.replace(path, 'guide', 'pwned')],
        ['mkdir', () => sandbox.mkdir(`${path}/sub`, { parents: true })],
        ['delete', () => sandbox.delete(path, { recursive: true })],
        ['move from', () => sandbox.move(path, 'moved')],
        ['move to', () => sandbox.move('root.txt', path)],
        ['copy to', () => sandbox.copy('root.txt', path)],
      ];
      for (const [name, mutation] of mutations) {
        expect(await refused(mutation), `${name} ${path}`).toMatch(/read-only|sandbox entry|outside the sandbox scope|already exists|cannot be removed/);
      }
    }
    expect(await sandbox.read('workspace://docs/guide.md')).toBe('guide');
    expect(await sandbox.read('workspace://skills/a/SKILL.md')).toBe('# Skill');
    expect(await workspace.exportSnapshot()).toEqual(before);
  });

  it('refuses the corpus through the tools of a run, and the workspace is unchanged', async () => {
    const { workspace, sandbox, before } = await corpusFixture();
    const targets = [...INVALID, ...HIDDEN, ...READ_ONLY.filter((path) => !path.endsWith('a') && path !== 'docs')];
    const calls = targets.flatMap((path) => [
      { name: 'write_file', input: { path, content: 'pwned' } },
      { name: 'replace_in_file', input: { path, old_text: 'guide', new_text: 'pwned' } },
      { name: 'delete_file', input: { path, recursive: true } },
      { name: 'move_file', input: { source: path, destination: 'moved.txt' } },
      { name: 'move_file', input: { source: 'root.txt', destination: path } },
    ]);
    const model = scriptedModel([{ toolCalls: calls }, { text: 'done' }]);
    const agent = defineAgent({
      name: 'attacker',
      model,
      tools: [filesystemTools({ exclusive: true })],
      limits: { maxToolCalls: calls.length },
      capabilities: [workspaceCapability(), sandboxCapability()],
    });
    const run = await agent.ask('try everything', { workspace, sandbox });
    const results = run.steps[0]!.toolResults;
    expect(results).toHaveLength(calls.length);
    const accepted = results.filter((result) => result.status !== 'error').map((result) => `${result.toolName} ${JSON.stringify(result.input).slice(0, 60)}`);
    expect(accepted).toEqual([]);
    expect(await workspace.exportSnapshot()).toEqual(before);
  });

  it('refuses the corpus through the shell, and the workspace is unchanged', async () => {
    const { workspace, sandbox, before } = await corpusFixture();
    for (const path of [...INVALID.filter((path) => path.length > 0), ...HIDDEN, ...READ_ONLY]) {
      const readable = READ_ONLY.includes(path);
      for (const argv of [
        ['rm', '-rf', path],
        ['touch', path],
        ['mkdir', '-p', path],
        ['mv', 'root.txt', path],
        ['mv', path, 'moved'],
        // Copying out of a read-only grant is a read, which it allows.
        ...(readable ? [] : [['cp', '-r', path, 'copied']]),
        ['cp', 'root.txt', path],
        ['sed', '-i', 's/./x/', path],
      ]) {
        const result = await runShellCommand(sandbox, argv);
        const label = `${argv.join(' ').slice(0, 60)}: ${result.stderr}`;
        // `rm -f` of a missing file and `touch` of an existing one succeed by doing nothing.
        if (argv[0] !== 'rm' && argv[0] !== 'touch') expect(result.success, label).toBe(false);
        expect(await workspace.exportSnapshot(), label).toEqual(before);
      }
    }
    expect(await workspace.exportSnapshot()).toEqual(before);
  });

  it('keeps look-alike separators as literal names inside the granted path', async () => {
    const { workspace, sandbox } = await corpusFixture();
    for (const name of ['\uff0e\uff0e\uff0fx', '\u2215etc\u2215passwd', '\u2024\u2024', '...', '~', '-rf']) {
      await sandbox.write(name, 'literal');
      expect((await workspace.stat(name))?.kind).toBe('file');
      expect(workspace.resolve(name)).toEqual({ volume: 'root', path: name });
    }
  });
});
