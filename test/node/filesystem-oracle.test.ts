import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sandbox } from 'ghostlight/sandbox';
import { Workspace } from 'ghostlight/workspace';
import { projectRoot } from '../support/realworld';

/**
 * @modelcontextprotocol/server-filesystem as a behavioural oracle: the same
 * tree on disk (for the server, over stdio) and in a workspace (for our
 * sandbox), the same questions, the same answers where the tools overlap.
 * Deliberate differences are asserted as such (see docs/workspace.md).
 */
const TREE: Record<string, string> = {
  'README.md': '# Project\n\nSee notes.\n',
  'notes/today.md': 'buy milk\ncall back\n',
  'notes/ideas.txt': 'idea one\nidea two\n',
  'notes/deep/plan.md': 'step 1\nstep 2\nstep 1\n',
  'src/index.ts': 'export const answer = 42;\n',
  'src/util/strings.ts': "export const greet = (name: string) => `hi ${name}`;\n",
  '.config/settings.json': '{"theme":"dark"}\n',
  'unicode/häagen-dazs ☃.md': 'déjà vu — 👻\n',
};
const EMPTY_DIRECTORIES = ['empty'];

describe('the filesystem tools against @modelcontextprotocol/server-filesystem', () => {
  let root: string;
  let client: Client;
  let workspace: Workspace;
  let sandbox: Sandbox;

  const call = async (name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> => {
    const result = (await client.callTool({ name, arguments: args })) as { content: Array<{ type: string; text?: string }>; isError?: boolean };
    return { text: result.content.map((part) => part.text ?? '').join(''), isError: result.isError === true };
  };

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'ghostlight-oracle-')));
    workspace = await Workspace.open();
    for (const [path, content] of Object.entries(TREE)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), content);
      await workspace.writeFile(path, content, { parents: true });
    }
    for (const path of EMPTY_DIRECTORIES) {
      mkdirSync(join(root, path), { recursive: true });
      await workspace.mkdir(path);
    }
    sandbox = new Sandbox({ workspace, policy: { files: { root: 'read_write' } } });
    const server = join(projectRoot, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
    client = new Client({ name: 'ghostlight-oracle', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [server, root], stderr: 'ignore' }));
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await workspace?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('read_text_file and read_file return the same text', async () => {
    for (const path of Object.keys(TREE)) {
      const theirs = await call('read_text_file', { path: join(root, path) });
      expect(theirs.isError).toBe(false);
      expect(await sandbox.read(path)).toBe(theirs.text);
    }
  });

  it('list_directory and list_files list the same names and kinds', async () => {
    for (const path of ['.', 'notes', 'notes/deep', 'src', 'unicode', 'empty', '.config']) {
      const theirs = await call('list_directory', { path: join(root, path) });
      const theirEntries = theirs.text
        .split('\n')
        .filter((line) => line.length > 0)
        .map((line) => (line.startsWith('[DIR] ') ? `${line.slice(6)}/` : line.slice(7)))
        .sort();
      // Ours: sorted by code point, one per line, directories suffixed with `/` (LittleGhost's format).
      const ours = await sandbox.list(path);
      expect(ours === '' ? [] : ours.split('\n').sort()).toEqual(theirEntries);
    }
  });

  it('search_files and glob find the same files and directories', async () => {
    for (const pattern of ['*.md', '**/*.md', '**/*.{md,txt}', 'notes/**', 'src/**/*.ts', '**/deep/*', '*', '**/.*', '**/*☃*', '**/[a-m]*.md', '**/?????.md']) {
      const theirs = await call('search_files', { path: root, pattern });
      const theirPaths = theirs.text === 'No matches found' ? [] : theirs.text.split('\n').map((path) => relative(root, path)).sort();
      const ours = (await sandbox.glob(pattern)).map((reference) => reference.replace(/\/$/, '')).sort();
      expect(ours, pattern).toEqual(theirPaths);
    }
  });

  it('edit_file and replace_in_file make the same edit when the text occurs once', async () => {
    for (const [path, oldText, newText] of [
      ['notes/today.md', 'call back', 'call back tomorrow'],
      ['src/index.ts', '42', '43'],
      ['unicode/häagen-dazs ☃.md', 'déjà', 'jamais'],
    ] as const) {
      const theirs = await call('edit_file', { path: join(root, path), edits: [{ oldText, newText }] });
      expect(theirs.isError).toBe(false);
      await sandbox.replace(path, oldText, newText);
      expect(await sandbox.read(path)).toBe(readFileSync(join(root, path), 'utf8'));
    }
  });

  it('differ deliberately on repeated or missing text: we refuse, they edit the first match or fail', async () => {
    const before = readFileSync(join(root, 'notes/deep/plan.md'), 'utf8');
    const theirs = await call('edit_file', { path: join(root, 'notes/deep/plan.md'), edits: [{ oldText: 'step 1', newText: 'first' }] });
    expect(theirs.isError).toBe(false);
    expect(readFileSync(join(root, 'notes/deep/plan.md'), 'utf8')).toBe(before.replace('step 1', 'first'));
    await expect(sandbox.replace('notes/deep/plan.md', 'step 1', 'first')).rejects.toThrow('Text occurs more than once in notes/deep/plan.md');
    expect(await sandbox.read('notes/deep/plan.md')).toBe(before);

    expect((await call('edit_file', { path: join(root, 'README.md'), edits: [{ oldText: 'absent text', newText: 'x' }] })).isError).toBe(true);
    await expect(sandbox.replace('README.md', 'absent text', 'x')).rejects.toThrow('Text was not found in README.md');
  });

  it('both refuse paths outside their root', async () => {
    for (const path of ['../outside.txt', '/etc/passwd']) {
      const theirs = await call('read_text_file', { path: path.startsWith('/') ? path : join(root, path) });
      expect(theirs.isError, path).toBe(true);
      await expect(sandbox.read(path)).rejects.toThrow();
    }
  });
});
