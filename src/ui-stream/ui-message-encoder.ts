import type { FinishReason, UIMessageChunk } from 'ai';
import type { Usage } from '../agent/usage.ts';
import type { GhostlightEvent } from '../events/events.ts';
import { NO_RESULT, observationResult, PendingModelCalls } from '../events/pending-model-calls.ts';

/** What the assistant message of a UI stream carries as `metadata`. */
export interface GhostlightMessageMetadata {
  /** Ghostlight's run id. */
  runId: string;
  /** The session the run belongs to. */
  sessionId?: string;
  /** The run's outcome, on the final chunk. */
  outcome?: 'completed' | 'failed' | 'partial' | 'cancelled' | 'waiting' | undefined;
  /** Total usage, on the final chunk. */
  usage?: Usage;
}

/**
 * Translates one run's Ghostlight events into AI SDK UI message stream
 * chunks (protocol `v1`, what `useChat` and `readUIMessageStream` read). One
 * encoder per run; it opens and closes text, reasoning and tool parts so the
 * client rebuilds exactly one assistant message.
 *
 * @example
 * const encoder = new UiMessageEncoder();
 * for await (const event of agent.stream(input)) for (const chunk of encoder.encode(event)) writer.write(chunk);
 */
export class UiMessageEncoder {
  #text: { id: string } | undefined;
  #segments = new Map<string, number>();
  #reasoning: { id: string } | undefined;
  #reasoningCount = 0;
  #stepOpen = false;
  #openToolInputs = new Map<string, string>();
  readonly #pending = new PendingModelCalls();
  #usage: Usage | undefined;
  #runId = '';
  #sessionId: string | undefined;
  #ended = false;
  readonly #messageId: string | undefined;

  /** `messageId` names the assistant message (default: the run id). */
  constructor(options: { messageId?: string | undefined } = {}) {
    this.#messageId = options.messageId;
  }

  /** Whether the final chunk was written. */
  get ended(): boolean {
    return this.#ended;
  }

  /** The chunks for one Ghostlight event. */
  encode(event: GhostlightEvent): UIMessageChunk<GhostlightMessageMetadata>[] {
    if (this.#ended) return [];
    const out: UIMessageChunk<GhostlightMessageMetadata>[] = [];
    if (this.#reasoning && event.type !== 'reasoning-delta') this.#closeReasoning(out);
    if (event.type === 'tool-approval-request') this.#pending.awaitingApproval(event.toolCallId);
    if (event.type === 'model-start' || event.type === 'run-stop' || event.type === 'run-partial' || event.type === 'run-cancel' || event.type === 'run-error' || event.type === 'run-waiting') {
      for (const call of this.#pending.drain()) out.push({ type: 'tool-output-error', toolCallId: call.toolCallId, errorText: NO_RESULT });
    }
    switch (event.type) {
      case 'run-start':
        this.#runId = event.runId;
        this.#sessionId = event.sessionId;
        out.push({ type: 'start', messageId: this.#messageId ?? event.runId, messageMetadata: { runId: event.runId, sessionId: event.sessionId } });
        break;
      case 'model-start':
        this.#closeStep(out);
        out.push({ type: 'start-step' });
        this.#stepOpen = true;
        break;
      case 'text-delta':
        if (!this.#text) {
          this.#text = { id: this.#segmentId(event.messageId) };
          out.push({ type: 'text-start', id: this.#text.id });
        }
        out.push({ type: 'text-delta', id: this.#text.id, delta: event.text });
        break;
      case 'reasoning-delta':
        this.#closeText(out);
        if (!this.#reasoning) {
          this.#reasoning = { id: `${event.messageId}.reasoning.${++this.#reasoningCount}` };
          out.push({ type: 'reasoning-start', id: this.#reasoning.id });
        }
        out.push({ type: 'reasoning-delta', id: this.#reasoning.id, delta: event.text });
        break;
      case 'message-start':
      case 'message-stop':
        this.#closeText(out);
        break;
      case 'tool-call-start':
        this.#openToolInputs.set(event.toolCallId, event.toolName);
        out.push({ type: 'tool-input-start', toolCallId: event.toolCallId, toolName: event.toolName });
        break;
      case 'tool-call-delta':
        out.push({ type: 'tool-input-delta', toolCallId: event.toolCallId, inputTextDelta: event.delta });
        break;
      case 'tool-call-stop':
        this.#openToolInputs.delete(event.toolCallId);
        out.push({ type: 'tool-input-available', toolCallId: event.toolCallId, toolName: event.toolName, input: event.input ?? {} });
        this.#pending.called(event);
        break;
      case 'tool-start':
        this.#pending.started(event);
        break;
      case 'program-observe': {
        // A control call (exec, wait, stop) reports through its observation: it becomes the call's output.
        const call = this.#pending.observed();
        if (call) {
          const result = observationResult(event);
          out.push(
            result.status === 'success'
              ? { type: 'tool-output-available', toolCallId: call.toolCallId, output: result.value }
              : { type: 'tool-output-error', toolCallId: call.toolCallId, errorText: JSON.stringify(result.value) },
          );
        }
        break;
      }
      case 'tool-stop':
        if (event.caller === 'model' && event.parentToolCallId === undefined) {
          out.push(
            event.status === 'success'
              ? { type: 'tool-output-available', toolCallId: event.toolCallId, output: event.content }
              : { type: 'tool-output-error', toolCallId: event.toolCallId, errorText: event.content },
          );
        } else {
          out.push({
            type: 'data-ghostlight-tool-result',
            transient: true,
            data: {
              toolCallId: event.toolCallId,
              toolName: event.toolName,
              caller: event.caller,
              parentToolCallId: event.parentToolCallId,
              status: event.status,
              content: event.content,
            },
          });
        }
        break;
      case 'model-retry': {
        // The failed attempt's text and tool inputs are superseded: close them and name them, so a UI can drop them.
        const supersededTextId = this.#text?.id;
        this.#closeText(out);
        for (const [toolCallId, toolName] of this.#openToolInputs) {
          out.push({ type: 'tool-input-error', toolCallId, toolName, input: {}, errorText: 'Superseded: the model call is retried' });
        }
        this.#openToolInputs.clear();
        for (const call of this.#pending.drain()) out.push({ type: 'tool-output-error', toolCallId: call.toolCallId, errorText: 'Superseded: the model call is retried' });
        out.push({
          type: 'data-ghostlight-model-retry',
          data: {
            turn: event.turn,
            attempt: event.attempt,
            delay: event.delay,
            errorClass: event.errorClass,
            partialText: event.partialText,
            ...(event.httpStatus !== undefined ? { httpStatus: event.httpStatus } : {}),
            ...(supersededTextId !== undefined ? { supersededTextId } : {}),
          },
        });
        break;
      }
      case 'context-compaction': {
        const { type: _type, runId: _runId, sequence: _sequence, time: _time, ...compaction } = event;
        out.push({ type: 'data-ghostlight-context-compaction', transient: true, data: compaction });
        break;
      }
      case 'model-stop':
        this.#closeText(out);
        this.#closeStep(out);
        break;
      case 'subagent': {
        // One part per subagent, updated in place (same id): its latest lifecycle event and status.
        const { type: _type, runId: _runId, sequence: _sequence, time: _time, ...lifecycle } = event;
        out.push({ type: 'data-ghostlight-subagent', id: event.subagentId, data: lifecycle });
        break;
      }
      case 'assembly-step-start':
      case 'assembly-step-stop':
      case 'assembly-step-error':
      case 'assembly-step-retry': {
        // One part per assembly step, updated in place (same id): where the step is.
        const status = event.type === 'assembly-step-start' ? 'running' : event.type === 'assembly-step-stop' ? 'completed' : event.type === 'assembly-step-retry' ? 'retrying' : event.terminal ? 'failed' : 'retrying';
        out.push({
          type: 'data-ghostlight-assembly-step',
          id: event.stepId,
          data: {
            stepId: event.stepId,
            participant: event.participant,
            assembly: event.assembly,
            assemblyKind: event.assemblyKind,
            status,
            ...(event.branchId !== undefined ? { branchId: event.branchId } : {}),
            ...('errorType' in event ? { errorType: event.errorType } : {}),
          },
        });
        break;
      }
      case 'assembly-transition':
      case 'assembly-fork':
      case 'assembly-join':
      case 'assembly-handoff-loop': {
        const { type, runId: _runId, sequence: _sequence, time: _time, ...detail } = event;
        out.push({ type: 'data-ghostlight-assembly', transient: true, data: { event: type.slice('assembly-'.length), ...detail } });
        break;
      }
      case 'agent-interjection-delivered':
        out.push({
          type: 'data-ghostlight-interjection',
          transient: true,
          data: { interjectionIds: event.interjectionIds, ...(event.batchKey !== undefined ? { batchKey: event.batchKey } : {}) },
        });
        break;
      case 'invocation-stop':
      case 'invocation-error':
        this.#usage = event.usage;
        break;
      case 'tool-approval-request':
        // AI SDK's convention: the tool part goes to `approval-requested`; useChat answers with addToolApprovalResponse.
        out.push({ type: 'tool-approval-request', approvalId: event.approvalId, toolCallId: event.toolCallId });
        break;
      case 'tool-approval-response':
        // A program's call: the program goes on either way, and its observation becomes the call's output.
        if (event.parentToolName !== undefined) this.#pending.continued(event.toolCallId, event.parentToolName);
        else if (!event.approved) out.push({ type: 'tool-output-denied', toolCallId: event.toolCallId });
        break;
      case 'run-waiting':
        this.#finish(out, 'waiting', 'tool-calls');
        break;
      case 'run-stop':
        this.#finish(out, 'completed', 'stop');
        break;
      case 'run-partial':
        this.#finish(out, 'partial', 'other');
        break;
      case 'run-cancel':
        this.#closeText(out);
        this.#closeStep(out);
        out.push({ type: 'message-metadata', messageMetadata: this.#metadata('cancelled') });
        out.push({ type: 'abort', reason: event.error.message });
        this.#ended = true;
        break;
      case 'run-error':
        this.#closeText(out);
        this.#closeStep(out);
        out.push({ type: 'error', errorText: event.response || event.error.message });
        this.#finish(out, 'failed', 'error');
        break;
      default:
        break;
    }
    return out;
  }

  /** Ends the stream with an error chunk, for a log that ended without a terminal event. */
  fail(errorText: string): UIMessageChunk<GhostlightMessageMetadata>[] {
    if (this.#ended) return [];
    const out: UIMessageChunk<GhostlightMessageMetadata>[] = [];
    this.#closeReasoning(out);
    this.#closeText(out);
    this.#closeStep(out);
    out.push({ type: 'error', errorText });
    this.#ended = true;
    return out;
  }

  #finish(out: UIMessageChunk<GhostlightMessageMetadata>[], outcome: GhostlightMessageMetadata['outcome'], finishReason: FinishReason): void {
    this.#closeText(out);
    this.#closeStep(out);
    out.push({ type: 'finish', finishReason, messageMetadata: this.#metadata(outcome) });
    this.#ended = true;
  }

  #metadata(outcome: GhostlightMessageMetadata['outcome']): GhostlightMessageMetadata {
    return {
      runId: this.#runId,
      ...(this.#sessionId !== undefined ? { sessionId: this.#sessionId } : {}),
      outcome,
      ...(this.#usage ? { usage: this.#usage } : {}),
    };
  }

  #segmentId(messageId: string): string {
    const seen = this.#segments.get(messageId) ?? 0;
    this.#segments.set(messageId, seen + 1);
    return seen === 0 ? messageId : `${messageId}.${seen + 1}`;
  }

  #closeText(out: UIMessageChunk<GhostlightMessageMetadata>[]): void {
    if (!this.#text) return;
    out.push({ type: 'text-end', id: this.#text.id });
    this.#text = undefined;
  }

  #closeReasoning(out: UIMessageChunk<GhostlightMessageMetadata>[]): void {
    if (!this.#reasoning) return;
    out.push({ type: 'reasoning-end', id: this.#reasoning.id });
    this.#reasoning = undefined;
  }

  #closeStep(out: UIMessageChunk<GhostlightMessageMetadata>[]): void {
    if (!this.#stepOpen) return;
    out.push({ type: 'finish-step' });
    this.#stepOpen = false;
  }
}
