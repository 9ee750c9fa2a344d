import { describe, expect, it } from 'vitest';
import { createArtifact, defineAgent, defineTool, toolResult } from 'ghostlight';
import { filesystemTools } from 'ghostlight/filesystem-tools';
import type { GhostlightEvent } from 'ghostlight';
import { scriptedModel } from '../support/scripted-model';
import { workspace } from 'ghostlight/workspace';
import { sandbox } from 'ghostlight/sandbox';
import { codeMode } from 'ghostlight/code-mode';
import { artifacts } from 'ghostlight/artifacts';

describe('the workspace with the other capabilities', () => {
  it('serves code-mode programs through the run executor, with the same grants', async () => {
    const source = [
      "await tools.write_file({ path: 'notes.md', content: 'hello from code' });",
      "const text = await tools.read_file({ path: 'notes.md' });",
      'let refused = null;',
      "try { await tools.write_file({ path: 'workspace://docs/x.md', content: 'no' }); } catch (error) { refused = error.message; }",
      "const found = await tools.grep({ pattern: 'hello', fixed_strings: true });",
      'return { text, refused, found };',
    ].join('\n');
    const model = scriptedModel([{ toolCalls: [{ id: 'p1', name: 'exec', input: { source } }] }, { text: 'Done.' }]);
    const agent = defineAgent({
      name: 'coder',
      model,
      tools: [filesystemTools({ exclusive: true })],
      capabilities: [workspace({ paths: { docs: 'docs' } }), sandbox({ policy: { files: { root: 'read_write', docs: 'read_only' } } }), codeMode()],
    });
    const run = await agent.ask('write and read a note');
    expect(run.outcome).toBe('completed');
    expect(JSON.parse(run.steps[0]!.toolResults[0]!.content)).toMatchObject({
      status: 'completed',
      value: { text: 'hello from code', refused: 'Sandbox scope is read-only', found: 'notes.md:1:hello from code' },
    });
    const calls = run.events.filter((event): event is Extract<GhostlightEvent, { type: 'tool-stop' }> => event.type === 'tool-stop');
    expect(calls.map((event) => [event.toolName, event.caller, event.status])).toEqual([
      ['write_file', 'code', 'success'],
      ['read_file', 'code', 'success'],
      ['write_file', 'code', 'error'],
      ['grep', 'code', 'success'],
    ]);
  });

  it('stores tool artifacts under workspace://artifacts, where a granted filesystem tool finds them', async () => {
    const report = defineTool({
      name: 'report',
      description: 'Build a report.',
      input: { type: 'object', properties: {}, additionalProperties: false },
      execute: () => toolResult({ value: 'ok', artifacts: [createArtifact({ data: 'a,b\n1,2\n', mediaType: 'text/csv', name: 'report.csv' })] }),
    });
    const model = scriptedModel([
      { toolCalls: [{ id: 'r1', name: 'report', input: {} }] },
      { toolCalls: [{ id: 'l1', name: 'glob', input: { pattern: '*.csv', path: 'workspace://artifacts' } }] },
      { text: 'Done.' },
    ]);
    const agent = defineAgent({
      name: 'reports',
      model,
      tools: [report, filesystemTools()],
      capabilities: [workspace(), sandbox({ policy: { files: { root: 'read_only', artifacts: 'read_only' } } }), artifacts()],
    });
    const run = await agent.ask('Export.');
    expect(run.outcome).toBe('completed');
    const found = run.steps[1]!.toolResults[0]!.content;
    expect(found).toMatch(/^workspace:\/\/artifacts\/[0-9a-f]{16}-[0-9a-f]{64}-report\.csv$/);
    expect(run.steps[0]!.toolResults[0]!.content).toContain(found);
  });
});
