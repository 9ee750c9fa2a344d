import * as v from 'valibot';
import { defineTool } from 'ghostlight';

/**
 * The calculator the recorded OpenAI streams call (`{a, b, op}`), shared by
 * every test that replays them.
 */
export const calculatorTool = defineTool({
  name: 'calculator',
  description: 'A minimal calculator for basic arithmetic. Call it once per step.',
  input: v.strictObject({ a: v.number(), b: v.number(), op: v.picklist(['add', 'subtract', 'multiply', 'divide']) }),
  execute: ({ a, b, op }) => ({ add: a + b, subtract: a - b, multiply: a * b, divide: a / b })[op],
});
