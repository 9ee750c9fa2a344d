import { createResearchTeam } from '../../../worker/demo-research';
import type { ExampleAgent } from './example';

/** A lead agent that fans work out to researcher subagents and waits for them. */
export const researchExample: ExampleAgent = {
  create: (model) => createResearchTeam(model),
};
