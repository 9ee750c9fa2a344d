import type { LanguageModel } from 'ai';
import { defineAgent } from '../agent/agent.ts';
import type { Operation } from '../instrumentation/operation.ts';
import type { ModelCapabilityOverrides } from '../model/model-capabilities.ts';
import type { ResultDeclaration } from '../structured/result-schema.ts';

/** One tool-less model request of a workflow: the planner's, or an `ai.generate` step's. */
export interface ModelRequest {
  readonly model: LanguageModel;
  /** The agent name the call runs under (`[A-Za-z0-9_-]`, at most 64). */
  readonly name: string;
  readonly instructions?: string | undefined;
  readonly prompt: string;
  /** A result schema: the answer is a checked value, with one repair turn. */
  readonly result?: ResultDeclaration | undefined;
  readonly modelCapabilities?: ModelCapabilityOverrides | undefined;
  readonly signal?: AbortSignal | undefined;
  /** The operation the model run reports inside. */
  readonly parentOperation?: Operation | undefined;
}

/**
 * Asks the model once through a tool-less agent run (the core's own model path and structured results, so
 * no `generateText` and its dependencies are bundled). Returns the text or the checked value and how many
 * model calls it took; throws the run's error (`StructuredResultError`, `ProviderError`, `CancelledError`).
 */
export async function askModel(request: ModelRequest): Promise<{ output: unknown; modelCalls: number }> {
  const agent = defineAgent({
    name: request.name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64),
    model: request.model,
    ...(request.instructions !== undefined ? { instructions: request.instructions } : {}),
    ...(request.result !== undefined ? { result: request.result } : {}),
    ...(request.modelCapabilities !== undefined ? { modelCapabilities: request.modelCapabilities } : {}),
    limits: { maxTurns: 2 },
  });
  const run = await agent.ask(request.prompt, {
    ...(request.signal ? { signal: request.signal } : {}),
    ...(request.parentOperation ? { parentOperation: request.parentOperation } : {}),
  });
  if (run.outcome !== 'completed') throw run.error ?? new Error(`The model call ended ${run.outcome}`);
  return { output: run.output, modelCalls: run.steps.length };
}
