import { createSupportAgent } from '../../../worker/demo-agent';
import type { Example } from './example';

/** The help-center assistant: two tools, permission from the run's context. */
export const helpCenterExample: Example = {
  id: 'support',
  title: 'Help-center lookup',
  description: 'A support agent with three tools: a help-center lookup, an order-status check that reads the account from the run context (never from the model), and a slow stock check you can stop mid-way.',
  suggestions: ['How long does shipping take?', 'What is your refund policy?', 'Where is order 481?', 'Where is order 482?', 'Is the "blue kettle" in stock?'],
  onWorker: true,
  create: (model) => createSupportAgent(model),
};
