import * as v from 'valibot';
import { createArtifact, defineAgent, defineTool, toolResult } from 'ghostlight';
import type { DemoRequest, DemoTurn } from 'ghostlight/demo-model';
import type { ExampleAgent } from './example';
import { codeMode } from 'ghostlight/code-mode';

const SALES: Record<string, number[]> = {
  north: [120, 135, 150, 160],
  south: [210, 190, 205, 230],
  east: [90, 110, 95, 130],
  west: [175, 160, 180, 170],
};

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

const listRegions = defineTool({
  name: 'list_regions',
  description: 'List the sales regions.',
  input: v.strictObject({}),
  output: v.array(v.string()),
  execute: () => Object.keys(SALES),
});

const regionSales = defineTool({
  name: 'region_sales',
  description: 'Monthly sales (in thousands) of one region for the last four months. Takes a moment: it queries the warehouse.',
  input: v.strictObject({ region: v.picklist(Object.keys(SALES) as [string, ...string[]]) }),
  output: v.strictObject({ region: v.string(), sales: v.array(v.number()) }),
  execute: async ({ region }, binding) => {
    await pause(300, binding.signal);
    return { region, sales: SALES[region]! };
  },
});

const exportCsv = defineTool({
  name: 'export_csv',
  description: 'Export rows as a CSV file the user can download.',
  input: v.strictObject({ name: v.string(), rows: v.array(v.record(v.string(), v.union([v.string(), v.number()]))) }),
  execute: ({ name, rows }) => {
    const columns = Object.keys(rows[0] ?? {});
    const csv = [columns.join(','), ...rows.map((row) => columns.map((column) => String(row[column] ?? '')).join(','))].join('\n');
    return toolResult({ value: { file: name, rows: rows.length }, artifacts: [createArtifact({ data: `${csv}\n`, mediaType: 'text/csv', name })] });
  },
});

const renderChart = defineTool({
  name: 'render_chart',
  description: 'Draw a bar chart (SVG image) of labelled values.',
  input: v.strictObject({ title: v.string(), bars: v.array(v.strictObject({ label: v.string(), value: v.number() })) }),
  execute: ({ title, bars }) => {
    const max = Math.max(1, ...bars.map((bar) => bar.value));
    const rows = bars
      .map((bar, index) => {
        const y = 40 + index * 34;
        const width = Math.round((bar.value / max) * 300);
        return `<text x="10" y="${y + 17}" font-size="14">${escapeXml(bar.label)}</text><rect x="90" y="${y}" width="${width}" height="24" fill="#5a3fd1"/><text x="${96 + width}" y="${y + 17}" font-size="13">${bar.value}</text>`;
      })
      .join('');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="460" height="${60 + bars.length * 34}" font-family="sans-serif"><rect width="100%" height="100%" fill="#fff"/><text x="10" y="24" font-size="16" font-weight="bold">${escapeXml(title)}</text>${rows}</svg>`;
    return toolResult({ value: { chart: 'chart.svg', bars: bars.length }, artifacts: [createArtifact({ data: svg, mediaType: 'image/svg+xml', name: 'chart.svg' })] });
  },
});

function escapeXml(text: string): string {
  return text.replace(/[<>&"]/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[char]!);
}

/** The program the offline demo model writes for this task (a real model writes its own). */
export const SALES_PROGRAM = `const regions = await tools.list_regions({});
const reports = await Promise.all(regions.map((region) => tools.region_sales({ region })));
const totals = reports
  .map(({ region, sales }) => ({ region, total: sales.reduce((sum, value) => sum + value, 0) }))
  .sort((left, right) => right.total - left.total);
await Promise.all([
  tools.export_csv({ name: 'region-totals.csv', rows: totals }),
  tools.render_chart({ title: 'Sales by region (k)', bars: totals.map(({ region, total }) => ({ label: region, value: total })) }),
]);
text(\`Best region: \${totals[0].region} (\${totals[0].total}k)\`);
return totals;`;

/** The offline model's plan: one program, then an answer from its observation. */
function respond(request: DemoRequest): DemoTurn {
  const observation = request.toolResults.find((result) => result.toolName === 'exec');
  if (observation) {
    const { output, value } = JSON.parse(observation.content) as { output?: string; value?: Array<{ region: string; total: number }> };
    const ranking = (value ?? []).map((row, index) => `${index + 1}. ${row.region}: ${row.total}k`).join('\n');
    return { text: `${output ?? ''}\n\nAll regions, best first:\n${ranking}\n\nThe totals are also in region-totals.csv. (offline demo model)` };
  }
  if (request.tools.some((tool) => tool.name === 'exec')) return { toolCalls: [{ toolName: 'exec', input: { source: SALES_PROGRAM } }] };
  return { text: 'Code mode is off for this agent. (offline demo model)' };
}

/** A data task solved in one code-mode program instead of many model round trips. */
export const dataTaskExample: ExampleAgent = {
  respond,
  create: (model) =>
    defineAgent({
      name: 'sales',
      model,
      instructions: 'Answer questions about regional sales. Use a program to combine several tool calls.',
      tools: [listRegions, regionSales, exportCsv, renderChart],
      capabilities: [codeMode()],
    }),
};
