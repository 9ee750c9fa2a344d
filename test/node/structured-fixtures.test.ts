import { createAnthropic } from '@ai-sdk/anthropic';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { defineAgent, generateResult } from 'ghostlight';
import type { GhostlightEvent } from 'ghostlight';
import { fixtureServer, fixturesAvailable } from './fixture-server';
import type { FixtureResponse } from './fixture-server';

const characters = v.strictObject({
  characters: v.array(v.strictObject({ name: v.string(), class: v.string(), description: v.string() })),
});
const recipe = v.strictObject({
  recipe: v.strictObject({
    name: v.string(),
    ingredients: v.array(v.strictObject({ name: v.string(), amount: v.string() })),
    steps: v.array(v.string()),
  }),
});
const weather = v.strictObject({
  elements: v.array(v.strictObject({ location: v.string(), temperature: v.number(), condition: v.string() })),
});

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function anthropicFor(responses: FixtureResponse[]) {
  const server = await fixtureServer(responses);
  servers.push(server);
  return { provider: createAnthropic({ baseURL: server.baseURL, apiKey: 'test-key' }), requests: server.requests };
}

describe.skipIf(!fixturesAvailable())('structured output replayed from recorded Anthropic responses', () => {
  it('streams native structured output (output_config) into a checked value, payload redacted', async () => {
    const { provider, requests } = await anthropicFor([{ sse: 'anthropic/anthropic-json-output-format.1.chunks.txt' }]);
    const agent = defineAgent({ name: 'casting', model: provider('claude-sonnet-4-5-20250929'), result: { schema: characters, name: 'cast' } });
    const stream = agent.stream('Invent three fantasy characters.');
    const events: GhostlightEvent[] = [];
    for await (const event of stream) events.push(event);
    const run = await stream.run;

    expect(run.outcome).toBe('completed');
    const output = run.output as v.InferOutput<typeof characters>;
    expect(output.characters).toHaveLength(3);
    expect(output.characters[0]).toMatchObject({ name: 'Theron Ironheart', class: 'warrior' });
    expect(requests[0]).toMatchObject({ stream: true, output_config: { format: { type: 'json_schema' } } });
    expect(JSON.stringify(events.filter((event) => event.type !== 'run-stop'))).not.toContain('Ironheart');
    expect(events.find((event) => event.type === 'message-stop')).toMatchObject({ text: '[Structured result cast redacted]' });
  });

  it('generates a recipe without streaming through generateResult', async () => {
    const { provider, requests } = await anthropicFor([{ json: 'anthropic/anthropic-json-output-format.1.json' }]);
    const { output, repaired } = await generateResult<v.InferOutput<typeof recipe>>({ model: provider('claude-sonnet-4-5-20250929'), result: recipe, prompt: 'A lasagna recipe.' });
    expect(repaired).toBe(false);
    expect(output.recipe.name).toBe('Classic Lasagna');
    expect(output.recipe.ingredients).toHaveLength(18);
    expect(requests[0]?.stream).toBeUndefined();
  });

  it('repairs a recorded answer of the wrong shape with the next recorded answer', async () => {
    const { provider, requests } = await anthropicFor([
      { sse: 'anthropic/anthropic-json-output-format.1.chunks.txt' },
      { sse: 'anthropic/anthropic-json-tool.1.chunks.txt' },
    ]);
    const agent = defineAgent({
      name: 'weather',
      model: provider('claude-haiku-4-5-20251001'),
      result: { schema: weather, name: 'weather', strategy: 'provider' },
      settings: { providerOptions: { anthropic: { structuredOutputMode: 'jsonTool' } as never } },
    });
    const run = await agent.ask('Weather in San Francisco?');
    expect(run.output).toEqual({ elements: [{ location: 'San Francisco', temperature: 58, condition: 'sunny' }] });
    expect(requests).toHaveLength(2);
    const repairRequest = JSON.stringify(requests[1]);
    expect(repairRequest).toContain('You have one repair attempt');
    expect(repairRequest).toContain('$.elements is required');
    expect(repairRequest).not.toContain('Ironheart');
  });

  it('fails with StructuredResultError when the recorded answers are wrong twice', async () => {
    const { provider } = await anthropicFor([
      { sse: 'anthropic/anthropic-json-output-format.1.chunks.txt' },
      { sse: 'anthropic/anthropic-json-output-format.1.chunks.txt' },
    ]);
    const agent = defineAgent({ name: 'weather', model: provider('claude-sonnet-4-5-20250929'), result: { schema: weather, name: 'weather' } });
    const run = await agent.ask('Weather?');
    expect(run.outcome).toBe('failed');
    expect(run.error).toMatchObject({ name: 'StructuredResultError', schemaName: 'weather' });
    expect((run.error as { validationErrors: string[] }).validationErrors).toEqual(
      expect.arrayContaining(['$.elements is required', '$.characters is not allowed']),
    );
  });

  it('streams a terminal-tool result (the tool strategy) from a recorded json tool call', async () => {
    const { provider, requests } = await anthropicFor([{ sse: 'anthropic/anthropic-json-tool.1.chunks.txt' }]);
    const agent = defineAgent({
      name: 'weather',
      model: provider('claude-haiku-4-5-20251001'),
      result: { schema: weather, name: 'json', strategy: 'tool' },
    });
    const run = await agent.ask('Weather in San Francisco?');
    expect(run.output).toEqual({ elements: [{ location: 'San Francisco', temperature: 58, condition: 'sunny' }] });
    expect(requests[0]).toMatchObject({ stream: true, tool_choice: { type: 'any' } });
    expect((requests[0]?.tools as Array<{ name: string }>).map((tool) => tool.name)).toEqual(['json']);
  });

  it('reads a non-streamed terminal-tool result through generateResult', async () => {
    const { provider } = await anthropicFor([{ json: 'anthropic/anthropic-json-tool.1.json' }]);
    const { output } = await generateResult({
      model: provider('claude-haiku-4-5-20251001'),
      result: { schema: weather, name: 'json', strategy: 'tool' },
      prompt: 'Weather in four cities?',
    });
    expect((output as v.InferOutput<typeof weather>).elements.map((element) => element.location)).toEqual(['San Francisco', 'London', 'Paris', 'Berlin']);
  });

  it('lets the provider strategy use Anthropic’s own json-tool fallback', async () => {
    const { provider } = await anthropicFor([{ sse: 'anthropic/anthropic-json-tool.1.chunks.txt' }]);
    const agent = defineAgent({
      name: 'weather',
      model: provider('claude-haiku-4-5-20251001'),
      result: { schema: weather, name: 'weather', strategy: 'provider' },
      settings: { providerOptions: { anthropic: { structuredOutputMode: 'jsonTool' } as never } },
    });
    const run = await agent.ask('Weather in San Francisco?');
    expect(run.error).toBeUndefined();
    expect(run.output).toEqual({ elements: [{ location: 'San Francisco', temperature: 58, condition: 'sunny' }] });
  });
});
