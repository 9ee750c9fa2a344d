import * as v from 'valibot';
import { defineTool } from 'ghostlight';

/** A tool a test can hold open: calls wait until `release()`. */
export function gateTool(name = 'gate') {
  let open!: () => void;
  let opened = new Promise<void>((resolve) => (open = resolve));
  const tool = defineTool({
    name,
    description: 'Wait until the test releases the gate.',
    input: { type: 'object', properties: {}, additionalProperties: false },
    execute: async () => {
      await opened;
      return 'opened';
    },
  });
  return {
    tool,
    release: () => open(),
    reset: () => {
      opened = new Promise<void>((resolve) => (open = resolve));
    },
  };
}

/** Echoes its arguments back; records the most calls in flight at once. */
export function echoTool(name = 'echo', delayMs = 0) {
  const stats = { calls: 0, active: 0, maxActive: 0 };
  const tool = defineTool({
    name,
    description: 'Echo the arguments back.',
    input: { type: 'object', additionalProperties: true },
    execute: async (input) => {
      stats.calls++;
      stats.active++;
      stats.maxActive = Math.max(stats.maxActive, stats.active);
      try {
        if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
        return input;
      } finally {
        stats.active--;
      }
    },
  });
  return { tool, stats };
}

/** Looks up a number by id (valibot input, JSON output schema). */
export const lookupTool = defineTool({
  name: 'lookup',
  description: 'Look up an item by id.',
  input: v.strictObject({ id: v.number() }),
  output: { type: 'object', properties: { id: { type: 'number' }, name: { type: 'string' } }, required: ['id', 'name'] },
  execute: ({ id }) => ({ id, name: `item ${id}` }),
});
