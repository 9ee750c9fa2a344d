import { createAnthropic } from '@ai-sdk/anthropic';
import { afterEach, describe, expect, it } from 'vitest';
import { createArtifact, defineAgent, defineTool, toolResult } from 'ghostlight';
import { MemoryArtifactStorage, artifacts } from 'ghostlight/artifacts';
import { fixtureServer, fixturesAvailable } from './fixture-server';

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe.skipIf(!fixturesAvailable())('artifact media through the real Anthropic provider', () => {
  it('sends a tool’s image and CSV to the model after the tool result, and drops them from the history', async () => {
    const server = await fixtureServer([{ sse: 'anthropic/anthropic-tool-no-args.chunks.txt' }, { sse: 'anthropic/anthropic-text.chunks.txt' }]);
    servers.push(server);
    const anthropic = createAnthropic({ baseURL: server.baseURL, apiKey: 'test-key' });
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const tool = defineTool({
      name: 'updateIssueList',
      description: 'Update the issue list.',
      input: { type: 'object' },
      execute: () =>
        toolResult({
          value: { updated: 2 },
          artifacts: [createArtifact({ data: png, mediaType: 'image/png', name: 'chart.png' }), createArtifact({ data: 'id,title\n1,Bug\n', mediaType: 'text/csv', name: 'issues.csv' })],
        }),
    });
    const storage = new MemoryArtifactStorage();
    const agent = defineAgent({ name: 'issues', model: anthropic('claude-sonnet-4-5-20250929'), tools: [tool], capabilities: [artifacts({ storage })] });
    const run = await agent.ask('Update the issues.');

    expect(run.error).toBeUndefined();
    expect(run.outcome).toBe('completed');
    expect(storage.references()).toHaveLength(2);
    const messages = server.requests[1]!.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>;
    const last = messages.at(-1)!;
    expect(last.role).toBe('user');
    const types = last.content.map((block) => block.type);
    expect(types).toContain('tool_result');
    expect(types).toContain('image');
    expect(JSON.stringify(last.content)).toContain('Artifact issues.csv (text/csv):\\nid,title\\n1,Bug\\n');
    expect(JSON.stringify(last.content)).toContain('Workspace artifacts:');
    expect(run.messages.filter((message) => message.role === 'user')).toHaveLength(1);
  });
});
