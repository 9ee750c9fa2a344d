import type { LanguageModel, ModelMessage } from 'ai';
import type { FinishReason } from '../events/events.ts';
import type { Operation } from '../instrumentation/operation.ts';
import type { ModelCapabilities } from '../model/model-capabilities.ts';
import { ModelCaller } from './model-call.ts';
import type { ModelSettings } from './model-step.ts';
import { runModelTurn } from './model-step.ts';
import { providerCall } from './run-failure.ts';
import { usageAttributes } from './usage.ts';
import type { Usage } from './usage.ts';

/** A call of the run's model outside the conversation (a summary, a classification). */
export interface RunModelRequest {
  /** System instructions of this call. */
  readonly instructions?: string | undefined;
  readonly messages: readonly ModelMessage[];
  /** Settings over the run's (`maxOutputTokens`, `temperature`…). */
  readonly settings?: ModelSettings | undefined;
  /** What the call is for, as its `model` operation reports it (e.g. `context_compaction`). */
  readonly purpose?: string | undefined;
}

/** What such a call answered. */
export interface RunModelResponse {
  readonly text: string;
  readonly finishReason: FinishReason;
  readonly usage: Usage;
}

/**
 * The run's model as capabilities may use it (`CapabilitySetupContext.model`):
 * what it can do, and single calls without tools that go through the run's
 * retries, signal and deadline and whose usage counts toward the run's.
 */
export interface RunModel {
  /** The model's capabilities: the built-in table with the application's overrides (`contextWindow`, `maxOutputTokens`…). */
  readonly capabilities: ModelCapabilities;
  /** Calls the model once, without tools and without events; provider failures are `ProviderError`s. */
  generate(request: RunModelRequest): Promise<RunModelResponse>;
}

/** Builds the run's {@link RunModel}. */
export function createRunModel(options: {
  model: LanguageModel;
  capabilities: ModelCapabilities;
  settings: ModelSettings;
  signal: AbortSignal;
  deadline: number | undefined;
  now: () => number;
  recordUsage: (usage: Usage) => void;
  /** The run's agent operation: each call is a `model` operation inside it. */
  operation?: Operation | undefined;
}): RunModel {
  return {
    capabilities: options.capabilities,
    async generate(request) {
      const settings = { ...options.settings, ...request.settings };
      // A caller of its own: its conversion cache belongs to the run's conversation.
      const caller = new ModelCaller(options.model, settings);
      const operation = options.operation?.start(
        'model',
        { model: caller.model.modelId, provider: caller.model.provider, purpose: request.purpose ?? 'generate', temperature: settings.temperature, maxOutputTokens: settings.maxOutputTokens },
        { input: request.messages },
      );
      const step = await providerCall(options.signal, () =>
        runModelTurn({
          caller,
          instructions: request.instructions,
          messages: request.messages,
          tools: [],
          signal: options.signal,
          turn: 0,
          emit: () => undefined,
          deadline: options.deadline,
          now: options.now,
          onRetry: (notice) => operation?.emit('model_retry', { attempt: notice.attempt, delayMs: notice.delayMs, errorType: notice.errorClass, httpStatus: notice.httpStatus }),
        }),
      ).catch((error: unknown) => {
        operation?.finish({}, error);
        throw error;
      });
      operation?.finish({ finishReason: step.finishReason, ...usageAttributes(step.usage) }, undefined, { output: step.text });
      options.recordUsage(step.usage);
      return { text: step.text, finishReason: step.finishReason, usage: step.usage };
    },
  };
}
