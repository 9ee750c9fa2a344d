import { createSupportAgent } from '../../../worker/demo-agent';
import type { ExampleAgent } from './example';

/** The help-center assistant: two tools, permission from the run's context. */
export const helpCenterExample: ExampleAgent = {
  create: (model) => createSupportAgent(model),
};
