import type { RecordedOperation } from 'ghostlight';

/**
 * What the playground shows, whoever ran the agent: the local runner maps
 * Ghostlight events to these, the Worker runner maps AG-UI events.
 */
export type ViewEvent =
  | { type: 'run-start'; runId: string }
  | { type: 'turn-start'; turn: number }
  | { type: 'text'; messageId: string; delta: string }
  | { type: 'reasoning'; messageId: string; delta: string }
  | { type: 'tool-start'; id: string; name: string; input: unknown; caller: string; parentId?: string }
  | { type: 'tool-stop'; id: string; status: 'success' | 'error'; content: string; value?: unknown; durationMs: number }
  | { type: 'program-start'; id: string; source: string }
  | { type: 'program-observe'; id: string; via: string; status: string; output: string; value?: unknown; error?: string }
  | { type: 'artifacts'; id: string; items: ArtifactView[] }
  | { type: 'usage'; totalTokens: number }
  | SubagentView
  | AssemblyView
  | { type: 'custom'; name: string; value: unknown }
  | { type: 'trace'; operations: RecordedOperation[]; where: string }
  | { type: 'end'; outcome: 'completed' | 'failed' | 'partial' | 'cancelled' | 'waiting'; response: string; output?: unknown; error?: string; approvals?: ApprovalView[] };

/** A call waiting for the user's approval. */
export interface ApprovalView {
  approvalId: string;
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/** A subagent's lifecycle (Ghostlight's `subagent` events, or AG-UI's `ghostlight.subagent`): no message content. */
export interface SubagentView {
  type: 'subagent';
  event: string;
  subagentId: string;
  kind: string;
  status: string;
  turn?: number;
  /** The parent's call that queued the turn (its card holds the subagent's card). */
  parentToolCallId?: string;
  /** The subagent's own tool call, for `tool_started` and `tool_finished`. */
  toolCallId?: string;
  toolName?: string;
  toolStatus?: string;
}

/** A composite assembly's step or move (Ghostlight's `assembly-*` events). */
export interface AssemblyView {
  type: 'assembly';
  /** For the timeline. */
  label: string;
  /** The step's participant and where it is, for step events. */
  participant?: string;
  state?: 'running' | 'completed' | 'failed' | 'retrying';
  stepId?: string;
}

/** A file a tool produced, ready to show. */
export interface ArtifactView {
  name: string;
  mediaType: string;
  data: Uint8Array;
  /** Where the run stored it (e.g. `workspace://artifacts/…`), when it did. */
  reference?: string;
}

/** Runs one user message somewhere and yields what to show. */
export interface Runner {
  /** Where the agent runs, for the timeline. */
  readonly label: string;
  run(agentId: string, input: string, signal: AbortSignal): AsyncIterable<ViewEvent>;
  /** Interjects into the run in progress (SPEC A18); resolves with the model's reply once the next model boundary answered it. */
  interject?(text: string): Promise<{ text: string }>;
  /** Continues a run waiting for approvals with the user's answers (runners that keep sessions). */
  resume?(agentId: string, answers: Array<{ approvalId: string; approved: boolean; reason?: string }>, signal: AbortSignal): AsyncIterable<ViewEvent>;
  /** What the agent's stored session waits for (after a reload). */
  pending?(agentId: string): Promise<ApprovalView[]>;
  /** Forgets the conversation. */
  reset(): void;
}
