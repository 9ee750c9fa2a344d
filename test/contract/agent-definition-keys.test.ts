import { jsonSchema, tool } from 'ai';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ConfigurationError, defineAgent, defineTool } from 'ghostlight';
import { scriptedModel } from '../support/scripted-model';

describe('defineAgent options', () => {
  it('refuses unknown keys, naming the closest key or the Ghostlight equivalent', () => {
    const model = scriptedModel([]);
    expect(() => defineAgent({ name: 'a', model, instrutions: 'Be brief.' } as never)).toThrow('Unknown option instrutions for defineAgent(a) (did you mean instructions?)');
    expect(() => defineAgent({ name: 'a', model, system: 'Be brief.' } as never)).toThrow('Unknown option system for defineAgent(a) (did you mean instructions?)');
    expect(() => defineAgent({ name: 'a', model, stopWhen: 3 } as never)).toThrow(ConfigurationError);
    expect(() => defineAgent({ name: 'a', model, temperature: 0 } as never)).toThrow(/settings \(temperature\)/);
  });

  it('refuses unknown keys of capability and toolset options too', async () => {
    const { skills } = await import('ghostlight/skills');
    const { mcpToolset } = await import('ghostlight/mcp');
    expect(() => skills({ path: [] } as never)).toThrow('Unknown option path for skills() (did you mean paths?)');
    expect(() => mcpToolset({ url: 'https://mcp.example/mcp', connection: { url: 'https://mcp.example/mcp' } } as never)).toThrow(/Unknown option url for mcpToolset/);
  });

  it('accepts a tools record (AI SDK’s shape) of AI SDK and Ghostlight tools, AI SDK tools named by their key', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'add', input: { a: 2, b: 3 } }, { name: 'shout', input: { text: 'hi' } }] }, { text: 'done' }]);
    const shout = defineTool({ name: 'shout', description: 'Shout.', input: v.object({ text: v.string() }), execute: ({ text }) => text.toUpperCase() });
    const add = tool({ description: 'Add.', inputSchema: jsonSchema<{ a: number; b: number }>({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } }), execute: ({ a, b }) => a + b });
    const agent = defineAgent({ name: 'a', model, tools: { add, shout } });
    const run = await agent.ask('Go');
    expect(run.outcome).toBe('completed');
    expect(run.steps[0]!.toolResults.map((result) => [result.toolName, result.content])).toEqual([['add', '5'], ['shout', 'HI']]);
  });
});
