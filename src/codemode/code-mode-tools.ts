import { defineTool } from '../tool/define-tool';
import type { Tool } from '../tool/tool';
import { toolResult } from '../tool/tool-result';
import { describeWindow } from './code-instructions';
import type { CodeObservation, CodeSession } from './code-session';
import type { Artifact } from '../artifacts/artifact';

/** The names of the code-mode control tools. */
export const CODE_MODE_CONTROL_TOOLS: readonly string[] = Object.freeze(['exec', 'wait', 'stop']);

/**
 * The three control tools the model sees in code mode, bound to one session.
 * Their results are the observation as JSON (`{status, output, value?, error?}`);
 * artifacts produced by the program's tool calls come back with them.
 */
export function codeModeTools(session: CodeSession, observeMs: number): Tool[] {
  const window = describeWindow(observeMs);
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
      return deliver(await session.exec(source, binding.toolCallId, { maxOutputTokens: max_output_tokens }));
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
    execute: async (input) => deliver(await session.wait({ maxOutputTokens: (input as { max_output_tokens?: number }).max_output_tokens })),
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
    execute: async (input) => deliver(await session.stop({ maxOutputTokens: (input as { max_output_tokens?: number }).max_output_tokens })),
  });
  return [exec, wait, stop];
}

function deliver(observation: CodeObservation & { artifacts: Artifact[] }) {
  const { artifacts, ...value } = observation;
  return artifacts.length === 0 ? value : toolResult({ value, artifacts });
}
