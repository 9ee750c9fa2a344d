import type { ModelRequest } from '../agent/hooks.ts';
import { CAPABILITY_ORDER } from '../agent/run-capability.ts';
import type { RunCapability } from '../agent/run-capability.ts';
import type { RunModel } from '../agent/run-model.ts';
import type { Usage } from '../agent/usage.ts';
import { ConfigurationError } from '../error/configuration-error.ts';
import { ContextWindowOverflowError } from '../error/context-window-overflow-error.ts';
import { isControlError } from '../error/control-errors.ts';
import { OutputLimitError, ProtocolError } from '../error/protocol-error.ts';
import type { ErrorInfo, EventPayload } from '../events/events.ts';
import { planCompaction, SUMMARIZATION_PROMPT, summaryMessage, transcriptOf } from './compaction.ts';
import { resolveContextOptions } from './context-options.ts';
import type { ContextSettings, ManageContextOptions } from './context-options.ts';
import { estimateRequestTokens } from './estimate-tokens.ts';

/**
 * Context management (LittleGhost's `manage_context`) as a run capability.
 *
 * Before every model call the request is estimated (its JSON over four
 * characters per token); at `compressionThreshold` of the context window
 * (the model's own when its capabilities know it, else
 * `contextWindowTokens`) the oldest conversation messages are summarised by
 * the same model into one user message, system messages and the most recent
 * `preserveRecentMessages` kept, a tool call never parted from its result.
 * A compaction that fails leaves the request as it was. When the provider
 * still refuses the request (`ContextWindowOverflowError`), the conversation
 * is compacted once and the call retried (`afterModelError`, at most three
 * recoveries a turn). Every attempt writes a `context-compaction` event; the
 * summary's tokens count toward the run's usage. With sessions, the compacted
 * conversation is what the session keeps and the next turn loads.
 *
 * @example
 * defineAgent({ name: 'support', model, capabilities: [manageContext({ preserveRecentMessages: 6 })] });
 */
export function manageContext(options: ManageContextOptions = {}): RunCapability {
  const settings = resolveContextOptions(options);
  return {
    version: 'run-capability-v1',
    name: 'context',
    order: CAPABILITY_ORDER.context,
    setup({ model, emit, binding }) {
      const compactor = new Compactor(settings, model, (event) => {
        emit(event);
        binding.operation?.emit('context_compaction', {
          turn: event.turn,
          reason: event.reason,
          outcome: event.outcome,
          estimatedTokens: event.estimatedTokens,
          contextWindowTokens: event.contextWindowTokens,
          removedMessages: event.removedMessages,
          errorType: event.error?.name,
        });
      });
      return {
        hooks: {
          async beforeModel({ request, turn }) {
            const estimated = estimateRequestTokens(request);
            if (estimated < compactor.window * settings.compressionThreshold) return undefined;
            try {
              return { replace: await compactor.compact(request, turn, 'threshold', estimated) };
            } catch (error) {
              if (isControlError(error) || binding.signal.aborted) throw error;
              return undefined;
            }
          },
          async afterModelError({ request, turn, error }) {
            if (!ContextWindowOverflowError.isInstance(error)) return undefined;
            try {
              return { replace: await compactor.compact(request, turn, 'overflow', estimateRequestTokens(request)) };
            } catch (failure) {
              if (isControlError(failure) || binding.signal.aborted) throw failure;
              return undefined; // The overflow stands; the event says why compaction could not help.
            }
          },
        },
      };
    },
  };
}

type CompactionEvent = Extract<EventPayload, { type: 'context-compaction' }>;

class Compactor {
  readonly #settings: ContextSettings;
  readonly #model: RunModel;
  readonly #emit: (event: CompactionEvent) => void;

  constructor(settings: ContextSettings, model: RunModel, emit: (event: CompactionEvent) => void) {
    this.#settings = settings;
    this.#model = model;
    this.#emit = emit;
  }

  /** The window compaction works with: the model's own when known, else the configured one. */
  get window(): number {
    const known = this.#model.capabilities.contextWindow;
    return typeof known === 'number' && Number.isFinite(known) && known > 0 ? known : this.#settings.contextWindowTokens;
  }

  /** Summarises the oldest messages; reports the outcome as a `context-compaction` event either way. */
  async compact(request: ModelRequest, turn: number, reason: 'threshold' | 'overflow', estimatedTokens: number): Promise<ModelRequest> {
    const base = { type: 'context-compaction' as const, turn, reason, estimatedTokens, contextWindowTokens: this.window };
    let usage: Usage | undefined;
    try {
      const plan = planCompaction(request.messages, this.#settings);
      const summary = await this.#model.generate({
        instructions: SUMMARIZATION_PROMPT,
        purpose: 'context_compaction',
        messages: [{ role: 'user', content: `${transcriptOf(plan.summarized)}\n\nPlease summarize this conversation.` }],
      });
      usage = summary.usage;
      if (summary.finishReason === 'length') throw new OutputLimitError({ message: 'The context summary stopped before completion' });
      if (summary.text.trim().length === 0) throw new ProtocolError('Context summarization ended without a response');
      const messages = [...plan.trusted, summaryMessage(summary.text), ...plan.kept];
      this.#emit({ ...base, outcome: 'compacted', removedMessages: request.messages.length - messages.length, usage });
      return { ...request, messages };
    } catch (error) {
      this.#emit({ ...base, outcome: 'failed', ...(usage ? { usage } : {}), error: failureInfo(error) });
      throw error;
    }
  }
}

/** What a compaction failure may tell a client: our protocol and configuration messages, otherwise only the name. */
function failureInfo(error: unknown): ErrorInfo {
  const name = typeof (error as { name?: unknown })?.name === 'string' ? (error as { name: string }).name : 'Error';
  const exposed = ProtocolError.isInstance(error) || ConfigurationError.isInstance(error);
  return { name, message: exposed ? (error as Error).message : 'The conversation could not be summarised' };
}
