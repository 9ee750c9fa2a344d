// The 10-tool task the code-mode and planned-workflow benchmarks share: one sales tool per region, and the program
// that fans out over all of them. Both sections measure exactly this task, so their figures compare.
import { defineTool } from 'ghostlight';
import type { Tool } from 'ghostlight';

export const REGIONS = ['north', 'south', 'east', 'west', 'central', 'coast', 'mountain', 'valley', 'lakes', 'islands'];
export const salesTools: Tool[] = REGIONS.map((region, index) =>
  defineTool({
    name: `sales_${region}`,
    description: `Daily sales of the ${region} region for the last 30 days.`,
    input: { type: 'object', properties: { days: { type: 'integer', minimum: 1, maximum: 30 } }, required: ['days'], additionalProperties: false },
    output: {
      type: 'array',
      items: { type: 'object', properties: { day: { type: 'integer' }, units: { type: 'integer' }, revenue: { type: 'number' } }, required: ['day', 'units', 'revenue'] },
    },
    execute: (input) =>
      Array.from({ length: (input as { days: number }).days }, (_, day) => ({ day: day + 1, units: 10 + ((day * 7 + index * 13) % 23), revenue: Math.round((1000 + ((day * 37 + index * 101) % 500)) * 100) / 100 })),
  }),
);
export const question = 'Which region had the highest revenue over the last 30 days, and how much?';
export const fanOutProgram = `const regions = ALL_TOOLS.map((tool) => tool.name);
const totals = await Promise.all(regions.map(async (name) => {
  const rows = await tools.call(name, { days: 30 });
  return { region: name.replace('sales_', ''), revenue: rows.reduce((sum, row) => sum + row.revenue, 0) };
}));
totals.sort((a, b) => b.revenue - a.revenue);
return { best: totals[0], runnerUp: totals[1] };`;
