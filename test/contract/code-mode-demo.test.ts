import { describe, expect, it } from 'vitest';
import { createOfflineDemoModel } from 'ghostlight/demo-model';
import { createAnalystAgent } from '../../worker/demo-analyst';
import { defaultCodeEngine } from 'ghostlight/code-mode';

describe('the offline demo model in code mode', () => {
  it('solves a data task with one exec that fans out with Promise.all', async () => {
    const agent = createAnalystAgent(createOfflineDemoModel());
    const run = await agent.ask('Which region had the highest revenue in sales over the last 30 days?');
    expect(run.outcome).toBe('completed');
    expect(run.steps.map((step) => step.toolCalls.map((call) => call.toolName))).toEqual([['exec'], []]);
    const source = (run.steps[0]!.toolCalls[0]!.input as { source: string }).source;
    expect(source).toContain('Promise.all');
    const brokered = run.events.filter((event) => event.type === 'tool-stop');
    expect(brokered).toHaveLength(6);
    expect(brokered.every((event) => event.type === 'tool-stop' && event.caller === 'code' && event.status === 'success')).toBe(true);
    expect(run.response).toContain('Called 6 tools in parallel.');
    expect(run.response).toMatch(/Highest revenue: sales_\w+ \(\d+(\.\d+)?\)\./);
  });
});
