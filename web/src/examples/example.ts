import type { LanguageModel } from 'ai';
import type { Askable, AskOptions } from 'ghostlight';
import type { DemoRequest, DemoTurn } from 'ghostlight/demo-model';

/** What the playground lists about an example, known before any agent code loads. */
export interface ExampleInfo {
  /** The agent name (also its route on the Worker). */
  id: string;
  title: string;
  description: string;
  /** Messages to try; the first one is filled in when the example is picked. */
  suggestions: string[];
  /** Whether the Worker serves this agent too. */
  onWorker: boolean;
  /** How the tab runs it on the Worker: AG-UI (default) or `/runs`, whose runs the demo Worker hosts in Durable Objects. */
  workerRoute?: 'ag-ui' | 'runs';
  /** Whether its runs keep a session in this tab (a run waiting for approval is shown again after a reload). */
  keepsSessions?: boolean;
  /** Loads the example's agent code (a separate chunk: the page starts without the agent runtime). */
  load(): Promise<ExampleAgent>;
}

/** The runnable part of an example. */
export interface ExampleAgent {
  /** The offline demo model's policy for this example (defaults to the built-in one). */
  respond?: (request: DemoRequest) => DemoTurn;
  /** Options for each run in this tab (e.g. the application-owned workspace). */
  askOptions?: () => Promise<Partial<AskOptions>>;
  /** Builds the agent (or assembly) for this tab. */
  create(model: LanguageModel): Promise<Askable> | Askable;
  /** For an assembly: its routes as Mermaid text, drawn above the answer with its steps lighting up. */
  diagram?: (assembly: Askable) => string;
}
