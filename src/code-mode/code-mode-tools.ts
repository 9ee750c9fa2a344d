import { defineTool } from '../tool/define-tool.ts';
import type { Tool } from '../tool/tool.ts';
import { toolResult } from '../tool/tool-result.ts';
import { describeWindow } from './code-instructions.ts';
import type { CodeObservation, CodeSession } from './code-session.ts';
import type { Artifact } from '../content/artifact.ts';
import type { EventPayload } from '../events/events.ts';
import { denialText } from '../agent/approvals.ts';
import { suspendForApproval } from '../tool/tool-suspension.ts';
import type { ToolResume } from '../tool/tool-suspension.ts';
import type { JsonValue } from '../util/json.ts';
import { CodeSuspension } from './code-replay.ts';
import type { CodeJournal, CodeReplay } from './code-replay.ts';

/** The names of the code-mode control tools. */
export const CODE_MODE_CONTROL_TOOLS: readonly string[] = Object.freeze(['exec', 'wait', 'stop']);

/**
 * The three control tools the model sees in code mode, bound to one session.
 * Their results are the observation as JSON (`{status, output, value?, error?}`);
 * artifacts produced by the program's tool calls come back with them.
 */
export function codeModeTools(session: CodeSession, observeMs: number, emit: (event: EventPayload) => void = () => undefined): Tool[] {
  const window = describeWindow(observeMs);
  let programId = '';
  const observed = (via: 'exec' | 'wait' | 'stop', observation: CodeObservation & { artifacts: Artifact[] }) => {
    const { status, output, value, error } = observation;
    emit({ type: 'program-observe', programId, via, status, output, ...(value === undefined ? {} : { value }), ...(error === undefined ? {} : { error }) });
    return deliver(observation);
  };
  const exec = defineTool({
    name: 'exec',
    description: `Run one fresh code-mode program to orchestrate available tools. The program is observed for up to ${window}.\nIf it finishes, use the result directly. If it returns still_working, call wait to observe the same program.`,
    input: {
      type: 'object',
      properties: { source: { type: 'string' }, max_output_tokens: { type: 'integer', minimum: 1 } },
      required: ['source'],
      additionalProperties: false,
    },
    exclusive: true,
    execute: async (input, binding) => {
      const { source, max_output_tokens } = input as { source: string; max_output_tokens?: number };
      programId = binding.toolCallId;
      emit({ type: 'program-start', programId, source });
      const replay = replayOf(binding.resume);
      try {
        return observed('exec', await session.exec(replay?.source ?? source, binding.toolCallId, { maxOutputTokens: max_output_tokens, replay }));
      } catch (error) {
        if (CodeSuspension.isInstance(error) && error.journal) return suspended('exec', error);
        emit({ type: 'program-observe', programId, via: 'exec', status: 'error', output: '', error: (error as Error).message });
        throw error;
      }
    },
  });
  const wait = defineTool({
    name: 'wait',
    description: `Observe the active code-mode program for up to ${window}. The program keeps running continuously; wait does\nnot resume or restart it. Call again only after exec or wait returned still_working.`,
    input: {
      type: 'object',
      properties: { max_output_tokens: { type: 'integer', minimum: 1, description: 'Maximum output tokens returned by this observation.' } },
      additionalProperties: false,
    },
    exclusive: true,
    execute: async (input, binding) => {
      const maxOutputTokens = (input as { max_output_tokens?: number }).max_output_tokens;
      const replay = replayOf(binding.resume);
      try {
        // A program that suspended while observed by wait continues here: it is replayed under this call.
        if (replay) {
          programId = binding.toolCallId;
          return observed('wait', await session.exec(replay.source, binding.toolCallId, { maxOutputTokens, replay }));
        }
        return observed('wait', await session.wait({ maxOutputTokens }));
      } catch (error) {
        if (CodeSuspension.isInstance(error) && error.journal) return suspended('wait', error);
        throw error;
      }
    },
  });
  const stop = defineTool({
    name: 'stop',
    description: 'Stop the active code-mode program and return any output produced since the previous observation.',
    input: {
      type: 'object',
      properties: { max_output_tokens: { type: 'integer', minimum: 1, description: 'Maximum output tokens returned while stopping the program.' } },
      additionalProperties: false,
    },
    exclusive: true,
    execute: async (input) => observed('stop', await session.stop({ maxOutputTokens: (input as { max_output_tokens?: number }).max_output_tokens })),
  });
  /** The program waits for approval of one of its calls: the run stops; the answer replays it (docs/long-running-runs.md). */
  const suspended = (via: 'exec' | 'wait', error: CodeSuspension) => {
    emit({ type: 'program-observe', programId, via, status: 'still_working', output: '' });
    const state = { journal: error.journal as unknown as JsonValue, source: error.source ?? '' };
    return suspendForApproval({ toolName: error.toolName, input: (error.input ?? null) as JsonValue, toolHash: error.toolHash, state });
  };
  return [exec, wait, stop];
}

/** The replay of a resumed `exec`: the journal it suspended with and the answer (a denial as the call's error). */
function replayOf(resume: ToolResume | undefined): (CodeReplay & { source: string }) | undefined {
  if (!resume) return undefined;
  const state = resume.state as { journal?: CodeJournal; source?: string } | null;
  if (!state?.journal || typeof state.source !== 'string') return undefined;
  const toolName = state.journal.calls.find((call) => call.id === state.journal!.suspended?.id)?.name ?? 'tool';
  return { journal: state.journal, approved: resume.approved, denial: denialText({ toolName }, resume.reason), source: state.source };
}

function deliver(observation: CodeObservation & { artifacts: Artifact[] }) {
  const { artifacts, ...value } = observation;
  return artifacts.length === 0 ? value : toolResult({ value, artifacts });
}
