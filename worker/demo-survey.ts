import * as v from 'valibot';
import { defineAgent, defineTool, INTERJECTION_PREFIX } from 'ghostlight';
import type { Agent } from 'ghostlight';
import { createOfflineDemoModel } from 'ghostlight/demo-model';
import type { DemoRequest, DemoTurn } from 'ghostlight/demo-model';
import type { LanguageModel } from 'ai';

const WAREHOUSES = ['Lyon', 'Oslo', 'Porto', 'Riga', 'Turin'] as const;
const STATE_KEY = 'demo.survey';

interface SurveyResult {
  readonly warehouse: string;
  readonly kettles: number;
  readonly surveyed: Array<{ warehouse: string; kettles: number }>;
  readonly remaining: number;
}

/** Surveys the next warehouse of the run (slow: 1.5 s each); the run's state remembers which are done. It stops when the run is cancelled. */
export const surveyNextWarehouse = defineTool({
  name: 'survey_next_warehouse',
  description: 'Count the kettles in stock at the next warehouse not yet surveyed in this run (slow).',
  input: v.strictObject({}),
  execute: (_input, binding) =>
    new Promise<SurveyResult>((resolve, reject) => {
      if (binding.signal.aborted) return reject(binding.signal.reason);
      const done = (Array.isArray(binding.state[STATE_KEY]) ? binding.state[STATE_KEY] : []) as Array<{ warehouse: string; kettles: number }>;
      const warehouse = WAREHOUSES[done.length] ?? WAREHOUSES[0];
      const timer = setTimeout(() => {
        const surveyed = [...done, { warehouse, kettles: (warehouse.length * 7) % 23 }];
        binding.state[STATE_KEY] = surveyed;
        resolve({ warehouse, kettles: surveyed.at(-1)!.kettles, surveyed, remaining: WAREHOUSES.length - surveyed.length });
      }, 1_500);
      binding.signal.addEventListener('abort', () => (clearTimeout(timer), reject(binding.signal.reason)), { once: true });
    }),
});

const SURVEY: DemoTurn = { toolCalls: [{ toolName: surveyNextWarehouse.name, input: {} }] };

/**
 * The offline model's policy for the survey: survey warehouses one per turn
 * until all five are done, then report. An interjection (SPEC A18) gets a short
 * answer first; the survey goes on, unless the interjection asks to stop.
 */
export function surveyPolicy(request: DemoRequest): DemoTurn {
  // An interjection is the latest user message until the tool results of the turn that answered it come back.
  if (request.userText.startsWith(INTERJECTION_PREFIX) && request.toolResults.length === 0) {
    const said = request.userText.slice(INTERJECTION_PREFIX.length).trim();
    if (/\b(stop|finish|enough|cancel|halt)\b/i.test(said)) return { text: `Stopping the survey as you asked ("${said}").` };
    return { text: `Noted: "${said}". Carrying on with the survey.`, ...SURVEY };
  }
  const last = request.toolResults.at(-1);
  if (!last || last.isError) return last ? { text: `The survey failed: ${last.content}` } : SURVEY;
  let result: SurveyResult;
  try {
    result = JSON.parse(last.content) as SurveyResult;
  } catch {
    return { text: `The survey answered: ${last.content}` };
  }
  if (result.remaining > 0) return SURVEY;
  return { text: `Survey done (offline demo model): ${result.surveyed.map((entry) => `${entry.warehouse} ${entry.kettles}`).join(', ')} kettles.` };
}

/**
 * The warehouse survey: a slow run of five tool calls, one per turn, to
 * interject into while it works. Offline, its model follows `surveyPolicy`.
 */
export function createSurveyAgent(model: LanguageModel, offline: boolean): Agent {
  return defineAgent({
    name: 'survey',
    model: offline ? createOfflineDemoModel({ respond: surveyPolicy }) : model,
    instructions: 'You survey the warehouses one at a time with survey_next_warehouse until none remain, then report the kettle counts.',
    tools: [surveyNextWarehouse],
  });
}
