import { describe, expect, it } from 'vitest';
import { ConfigurationError, defineAgent, isTerminalEvent } from 'ghostlight';
import { filesystemTools } from 'ghostlight/filesystem-tools';
import { Sandbox, sandbox } from 'ghostlight/sandbox';
import { shellTool } from 'ghostlight/shell';
import { MemoryWorkspaceStore, Workspace, workspace } from 'ghostlight/workspace';
import type { AgentDefinition, AskOptions, Run, ToolCallResult } from 'ghostlight';
import { scriptedModel } from '../support/scripted-model';

type Call = { name: string; input: unknown };

/** Runs one turn that makes `calls`, then answers; returns the results and the tool names the model saw. */
async function callTools(definition: Omit<AgentDefinition, 'name' | 'model'>, calls: Call[], options: AskOptions = {}) {
  const model = scriptedModel([{ toolCalls: calls }, { text: 'done' }]);
  const run = await defineAgent({ name: 'files', model, ...definition }).ask('go', options);
  const offered = (model.calls[0]?.tools ?? []).map((tool) => (tool as { name: string }).name);
  return { run, offered, results: run.steps[0]?.toolResults ?? ([] as readonly ToolCallResult[]) };
}

const contents = (results: readonly ToolCallResult[]) => results.map((result) => [result.status, result.content]);

describe('the filesystem tools', () => {
  it('offer only the read tools when the sandbox is read-only, every tool when writable (C.45)', async () => {
    const readOnly = await callTools({ tools: [filesystemTools()], capabilities: [workspace(), sandbox()] }, []);
    expect(readOnly.offered).toEqual(['read_file', 'list_files', 'glob', 'grep']);
    const writable = await callTools({ tools: [filesystemTools()], capabilities: [workspace(), sandbox({ policy: { files: { root: 'read_write' } } })] }, []);
    expect(writable.offered).toEqual(['read_file', 'list_files', 'glob', 'grep', 'write_file', 'replace_in_file', 'delete_file', 'move_file']);

    const littleGhost = filesystemTools({ only: ['read_file', 'list_files', 'write_file', 'replace_in_file'] });
    expect((await callTools({ tools: [littleGhost], capabilities: [workspace(), sandbox()] }, [])).offered).toEqual(['read_file', 'list_files']);
    expect((await callTools({ tools: [littleGhost], capabilities: [workspace(), sandbox({ policy: { files: { root: 'read_write' } } })] }, [])).offered).toEqual([
      'read_file',
      'list_files',
      'write_file',
      'replace_in_file',
    ]);
  });

  it('let an agent write, read, search, edit and list files', async () => {
    const { results } = await callTools({ tools: [filesystemTools()], capabilities: [workspace(), sandbox({ policy: { files: { root: 'read_write' } } })] }, []);
    expect(results).toEqual([]);
    const model = scriptedModel([
      { toolCalls: [{ name: 'write_file', input: { path: 'notes.md', content: 'alpha\nbeta TODO\n' } }] },
      { toolCalls: [{ name: 'read_file', input: { path: 'notes.md' } }, { name: 'grep', input: { pattern: 'TO+DO' } }] },
      { toolCalls: [{ name: 'replace_in_file', input: { path: 'notes.md', old_text: 'TODO', new_text: 'done' } }] },
      { toolCalls: [{ name: 'glob', input: { pattern: '*.md' } }, { name: 'list_files', input: {} }, { name: 'move_file', input: { source: 'notes.md', destination: 'archive.md' } }] },
      { toolCalls: [{ name: 'delete_file', input: { path: 'archive.md' } }, { name: 'list_files', input: { path: '.' } }] },
      { text: 'All done.' },
    ]);
    // Exclusive tools run one at a time in request order, so each call sees the one before it.
    const agent = defineAgent({ name: 'editor', model, tools: [filesystemTools({ exclusive: true })], capabilities: [workspace(), sandbox({ policy: { files: { root: 'read_write' } } })] });
    const run = await agent.ask('Tidy my notes');
    expect(run.outcome).toBe('completed');
    expect(run.steps.flatMap((step) => contents(step.toolResults))).toEqual([
      ['success', 'Wrote 16 bytes to notes.md'],
      ['success', 'alpha\nbeta TODO\n'],
      ['success', 'notes.md:2:beta TODO'],
      ['success', 'Wrote 16 bytes to notes.md'],
      ['success', 'notes.md'],
      ['success', 'notes.md'],
      ['success', 'Moved notes.md to archive.md'],
      ['success', 'Deleted archive.md'],
      ['success', ''],
    ]);
  });

  it('refuse traversal, host paths and NUL, resolve named paths, hide runtime-only paths (C.46)', async () => {
    const skills = new MemoryWorkspaceStore({ files: { 'a/SKILL.md': '# Skill A' } });
    const { results } = await callTools(
      {
        tools: [filesystemTools()],
        capabilities: [workspace(() => new Workspace({ paths: { skills: { store: skills }, scratch: 'scratch' }, setup: ({ workspace }) => workspace.writeFile('scratch/secret.txt', 'secret') })), sandbox({ policy: { files: { root: 'read_write', skills: 'read_only' }, runtimePaths: { scratch: 'read_write' } } })],
      },
      [
        { name: 'read_file', input: { path: '../x' } },
        { name: 'read_file', input: { path: '/etc/passwd' } },
        { name: 'read_file', input: { path: 'notes\u0000.md' } },
        { name: 'read_file', input: { path: 'workspace://skills/a/SKILL.md' } },
        { name: 'list_files', input: {} },
        { name: 'read_file', input: { path: 'scratch/secret.txt' } },
        { name: 'list_files', input: { path: 'workspace://scratch' } },
        { name: 'grep', input: { pattern: 'secret' } },
        { name: 'glob', input: { pattern: '**' } },
      ],
    );
    expect(contents(results)).toEqual([
      ['error', 'workspace path traversal is not allowed'],
      ['error', 'workspace paths must be relative or use workspace://'],
      ['error', 'Path contains a null byte'],
      ['success', '# Skill A'],
      ['success', ''],
      ['error', 'Path is outside the sandbox scope'],
      ['error', 'Path is outside the sandbox scope'],
      ['success', 'No matches found'],
      ['success', 'No matches found'],
    ]);
  });

  it("fail with LittleGhost's replace and read-only messages (C.47)", async () => {
    const { results } = await callTools(
      {
        tools: [filesystemTools({ exclusive: true })],
        capabilities: [workspace({ paths: { docs: 'docs' }, setup: ({ workspace }) => workspace.writeFile('docs/a.txt', 'one two two') }), sandbox({ policy: { files: { root: 'read_write', docs: 'read_only' } } })],
      },
      [
        { name: 'write_file', input: { path: 'b.txt', content: 'one two two' } },
        { name: 'replace_in_file', input: { path: 'b.txt', old_text: 'three', new_text: 'x' } },
        { name: 'replace_in_file', input: { path: 'b.txt', old_text: 'two', new_text: 'x' } },
        { name: 'write_file', input: { path: 'workspace://docs/a.txt', content: 'changed' } },
        { name: 'replace_in_file', input: { path: 'docs/a.txt', old_text: 'one', new_text: 'x' } },
        { name: 'read_file', input: { path: 'docs/a.txt' } },
      ],
    );
    expect(contents(results)).toEqual([
      ['success', 'Wrote 11 bytes to b.txt'],
      ['error', 'Text was not found in b.txt'],
      ['error', 'Text occurs more than once in b.txt'],
      ['error', 'Sandbox scope is read-only'],
      ['error', 'Sandbox scope is read-only'],
      ['success', 'one two two'],
    ]);
  });

  it('need a sandbox: without a workspace the run does not start', async () => {
    await expect(defineAgent({ name: 'nofs', model: scriptedModel([]), tools: [filesystemTools()] }).ask('hi')).rejects.toSatisfy(ConfigurationError.isInstance);
  });

  it('close the workspace and sandbox a run created, in reverse order, before the terminal event (C.76)', async () => {
    const order: string[] = [];
    class RecordingSandbox extends Sandbox {
      override async close(): Promise<void> {
        order.push('sandbox');
        await super.close();
      }
    }
    for (const turn of [{ text: 'ok' }, { error: new Error('provider down') }]) {
      order.length = 0;
      const model = scriptedModel([turn]);
      const agent = defineAgent({
        name: 'owner',
        model,
        capabilities: [workspace(() => new Workspace({ teardown: () => void order.push('workspace') })), sandbox(({ workspace }) => new RecordingSandbox({ workspace }))],
      });
      const stream = agent.stream('hi');
      let closedAtTerminal: string[] = [];
      for await (const event of stream) if (isTerminalEvent(event)) closedAtTerminal = [...order];
      const run: Run = await stream.run;
      expect(closedAtTerminal).toEqual(['sandbox', 'workspace']);
      expect(['completed', 'failed']).toContain(run.outcome);
      expect(run.cleanupFailed).toBe(false);
    }
  });

  it('never close a workspace or sandbox the application supplied (C.76)', async () => {
    const supplied = await Workspace.open();
    const suppliedSandbox = new Sandbox({ workspace: supplied, policy: { files: { root: 'read_write' } } });
    const { results } = await callTools(
      { tools: [filesystemTools()], capabilities: [workspace(), sandbox()] },
      [{ name: 'write_file', input: { path: 'kept.txt', content: 'kept' } }],
      { workspace: supplied, sandbox: suppliedSandbox },
    );
    expect(contents(results)).toEqual([['success', 'Wrote 4 bytes to kept.txt']]);
    expect(supplied.alive).toBe(true);
    expect(suppliedSandbox.alive).toBe(true);
    expect(await supplied.readText('kept.txt')).toBe('kept');

    const borrowed = await Workspace.open();
    const owned: string[] = [];
    const ownSandbox = sandbox(({ workspace: given }) => new (class extends Sandbox {
      override async close() {
        owned.push('sandbox');
        await super.close();
      }
    })({ workspace: given }));
    await callTools({ tools: [filesystemTools()], capabilities: [workspace(), ownSandbox] }, [{ name: 'list_files', input: {} }], { workspace: borrowed });
    expect(owned).toEqual(['sandbox']);
    expect(borrowed.alive).toBe(true);
    await supplied.close();
    await borrowed.close();
  });

  it('reject a supplied sandbox over another workspace', async () => {
    const one = await Workspace.open();
    const two = await Workspace.open();
    await expect(
      callTools({ tools: [filesystemTools()], capabilities: [workspace(), sandbox()] }, [], { workspace: one, sandbox: new Sandbox({ workspace: two }) }),
    ).rejects.toThrow(
      "The sandbox must govern the run's workspace",
    );
  });

  it('bind the workspace and sandbox to application tools too', async () => {
    const { results } = await callTools(
      {
        tools: [
          filesystemTools({ only: ['read_file'] }),
          shellTool(),
        ],
        capabilities: [workspace(), sandbox({ policy: { files: { root: 'read_write' } } })],
      },
      [
        { name: 'shell', input: { command: ['mkdir', '-p', 'a/b'] } },
        { name: 'shell', input: { command: ['sh', '-c', 'rm -rf /'] } },
      ],
    );
    expect(results.map((result) => JSON.parse(result.content))).toEqual([
      { stdout: '', stderr: '', exit_status: 0, success: true },
      { stdout: '', stderr: 'shell: sh: command not found\n', exit_status: 127, success: false },
    ]);
  });

  it('offer the shell only when the sandbox allows process execution', async () => {
    const without = await callTools({ tools: [shellTool()], capabilities: [workspace(), sandbox({ capabilities: ['read', 'list'] })] }, []);
    expect(without.offered).toEqual([]);
    const withShell = await callTools({ tools: [shellTool()], capabilities: [workspace(), sandbox()] }, []);
    expect(withShell.offered).toEqual(['shell']);
  });
});
