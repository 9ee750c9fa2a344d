import * as v from 'valibot';
import { defineAgent } from 'ghostlight';
import { helpCenterLookup } from '../../../worker/demo-agent';
import type { ExampleAgent } from './example';

/** A triage agent whose run output is a checked object, not prose. */
export const triageExample: ExampleAgent = {
  create: (model) =>
    defineAgent({
      name: 'triage',
      model,
      instructions: 'Classify the request using only the supplied evidence. Look up the help center when a policy matters.',
      tools: [helpCenterLookup],
      result: {
        name: 'support_triage',
        description: 'Submit the final structured result. Call this tool only as the final action.',
        schema: v.strictObject({
          category: v.picklist(['billing', 'delivery', 'returns', 'other']),
          urgent: v.boolean(),
          summary: v.pipe(v.string(), v.maxLength(500)),
        }),
        strategy: 'tool',
      },
    }),
};
