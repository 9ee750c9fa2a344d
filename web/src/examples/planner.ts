import { defineAgent } from 'ghostlight';
import { writeTodos } from 'ghostlight/todos';
import { checkStock, helpCenterLookup, orderStatus } from '../../../worker/demo-agent';
import type { ExampleAgent } from './example';

/** A support agent that plans multi-step requests with write_todos and works through the plan. */
export const plannerExample: ExampleAgent = {
  create: (model) =>
    defineAgent({
      name: 'planner',
      model,
      instructions:
        'You are a customer support assistant. For a request with several steps, publish a plan with write_todos first, keep exactly one step in progress, and update the plan as each step is done.',
      tools: [writeTodos(), helpCenterLookup, orderStatus, checkStock],
    }),
};
