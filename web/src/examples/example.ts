import type { Agent, DemoRequest, DemoTurn } from '../../../src/index';
import type { LanguageModel } from 'ai';

/** An example agent the playground offers. */
export interface Example {
  /** The agent name (also its route on the Worker). */
  id: string;
  title: string;
  description: string;
  /** Messages to try; the first one is filled in when the example is picked. */
  suggestions: string[];
  /** Whether the Worker serves this agent too. */
  onWorker: boolean;
  /** The offline demo model's policy for this example (defaults to the built-in one). */
  respond?: (request: DemoRequest) => DemoTurn;
  /** Builds the agent for this tab. */
  create(model: LanguageModel): Promise<Agent> | Agent;
}
