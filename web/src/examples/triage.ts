import * as v from 'valibot';
import { defineAgent } from '../../../src/index';
import { helpCenterLookup } from '../../../worker/demo-agent';
import type { Example } from './example';

/** A triage agent whose run output is a checked object, not prose. */
export const triageExample: Example = {
  id: 'triage',
  title: 'Structured triage',
  description:
    'Classifies a support request into a checked object (category, urgency, summary). The result schema is a valibot strictObject; the model submits it through a terminal tool, and a wrong shape gets exactly one repair turn.',
  suggestions: ['My delivery is late and it is urgent: how long does shipping take?', 'I was charged twice on my billing statement.', 'How do returns work?'],
  onWorker: false,
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
