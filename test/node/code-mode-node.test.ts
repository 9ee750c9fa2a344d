import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import variant from '@jitl/quickjs-wasmfile-release-sync';
import { defineAgent, defineTool } from 'ghostlight';
import { CodeLimitError, createQuickJsEngine, runCode, codeMode } from 'ghostlight/code-mode';
import { scriptedModel } from '../support/scripted-model';

describe('the CPU budget where the clock does not advance (deployed Workers)', () => {
  it('still stops a busy loop by counting interrupt checks', async () => {
    const frozen = createQuickJsEngine({ variant, clock: () => 0 });
    const error = await runCode('while (true) {}', { engine: frozen, limits: { cpuMs: 100 } }).catch((caught: unknown) => caught);
    expect(CodeLimitError.isInstance(error) && error.limit).toBe('cpu');
    expect((await runCode('return 6 * 7', { engine: frozen })).value).toBe(42);
  });
});

const fixture = '../shared/realworld/provider-fixtures/openai/programmatic-tool-calling.1.json';
const outputFixture = '../shared/realworld/provider-fixtures/openai/programmatic-tool-calling.3.json';
const missing = [fixture, outputFixture].filter((path) => !existsSync(path));
if (missing.length > 0) console.warn(`Skipping the real model-written program: missing ${missing.join(', ')}`);

describe.skipIf(missing.length > 0)('a real model-written program (OpenAI programmatic tool calling)', () => {
  interface Item { type: string; code?: string; result?: string; name?: string; description?: string; parameters?: object; output_schema?: object }
  const load = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as { output: Item[]; tools: Item[] };

  it('runs in code mode and reproduces the recorded program output', async () => {
    const recorded = load(fixture);
    const program = recorded.output.find((item) => item.type === 'program')!;
    const expected = load(outputFixture).output.find((item) => item.type === 'program_output')!.result!;
    const answers: Record<string, object> = {
      getInventory: { sku: 'sku_123', availableUnits: 42 },
      getDemand: { sku: 'sku_123', requestedUnits: 31 },
    };
    const tools = recorded.tools
      .filter((item) => item.type === 'function')
      .map((item) =>
        defineTool({
          name: item.name!,
          description: item.description!,
          input: item.parameters!,
          output: item.output_schema,
          execute: () => answers[item.name!],
        }),
      );
    const model = scriptedModel([{ toolCalls: [{ id: 'p1', name: 'exec', input: { source: program.code } }] }, { text: 'Inventory is sufficient.' }]);
    const run = await defineAgent({ name: 'inventory', model, tools, capabilities: [codeMode()] }).ask('Compare inventory and demand for sku_123.');
    expect(run.outcome).toBe('completed');
    const observation = JSON.parse(run.steps[0]!.toolResults[0]!.content) as { status: string; output: string };
    expect(observation.status).toBe('completed');
    expect(JSON.parse(observation.output)).toEqual(JSON.parse(expected));
    expect(observation.output).toBe(expected);
    const system = String(model.calls[0]?.prompt[0]?.content);
    expect(system).toContain('getInventory(args: {\n    sku: string;\n  }): Promise<{\n    sku: string;\n    availableUnits: number;\n  }>;');
  });
});
