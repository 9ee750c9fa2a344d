import type { Agent, AskOptions, DemoRequest, DemoTurn } from '../../../src/index';
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
  /** Options for each run in this tab (e.g. the application-owned workspace). */
  askOptions?: () => Promise<Partial<AskOptions>>;
  /** Builds the agent for this tab. */
  create(model: LanguageModel): Promise<Agent> | Agent;
}
