import * as v from 'valibot';
import { defineTool } from 'ghostlight';

/**
 * A tool (`slow_work`) that waits until the test opens it, telling the test when it started. A cancelled run
 * rejects it with the run's abort reason, so cancellation tests never hang on the gate.
 */
export function gatedTool() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const tool = defineTool({
    name: 'slow_work',
    description: 'Does slow work.',
    input: v.strictObject({}),
    execute: async (_input, binding) => {
      started();
      await Promise.race([opened, new Promise((_, reject) => binding.signal.addEventListener('abort', () => reject(binding.signal.reason)))]);
      return 'done';
    },
  });
  return { tool, open, running };
}
