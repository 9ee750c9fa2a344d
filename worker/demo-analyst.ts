import type { LanguageModel } from 'ai';
import { defineAgent, defineTool } from 'ghostlight';
import type { Agent, Tool } from 'ghostlight';
import { codeMode } from 'ghostlight/code-mode';

const REGIONS = ['north', 'south', 'east', 'west', 'central', 'coast'] as const;

/** One `sales_<region>` tool per region: daily units and revenue for the last N days (deterministic demo data). */
export const regionSalesTools: Tool[] = REGIONS.map((region, index) =>
  defineTool({
    name: `sales_${region}`,
    description: `Daily sales (units and revenue) of the ${region} region for the last N days.`,
    input: { type: 'object', properties: { days: { type: 'integer', minimum: 1, maximum: 90 } }, required: ['days'], additionalProperties: false },
    output: {
      type: 'array',
      items: { type: 'object', properties: { day: { type: 'integer' }, units: { type: 'integer' }, revenue: { type: 'number' } }, required: ['day', 'units', 'revenue'] },
    },
    execute: (input) =>
      Array.from({ length: (input as { days: number }).days }, (_, day) => ({
        day: day + 1,
        units: 10 + ((day * 7 + index * 13) % 23),
        revenue: Math.round((900 + ((day * 37 + index * 101) % 500) + index * 15) * 100) / 100,
      })),
  }),
);

/**
 * The demo data analyst: six regional sales tools behind code mode, so one
 * program fetches and sums them instead of six tool results going to the
 * model. `codeMode()` runs the same QuickJS build in Node, Workers and browsers.
 */
export function createAnalystAgent(model: LanguageModel): Agent {
  return defineAgent({
    name: 'analyst',
    model,
    instructions: 'You are a sales analyst. Write one program that fetches the regional figures you need and computes the answer.',
    tools: regionSalesTools,
    capabilities: [codeMode()],
  });
}
