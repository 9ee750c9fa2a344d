import { createSurveyAgent, surveyPolicy } from '../../../worker/demo-survey';
import type { ExampleAgent } from './example';

/** The warehouse survey: a slow run (five tool calls, one per turn) to interject into while it works. */
export const interjectionsExample: ExampleAgent = {
  respond: surveyPolicy,
  create: (model) => createSurveyAgent(model, false),
};
