import { defineTool } from '../tool/define-tool.ts';
import type { Tool } from '../tool/tool.ts';
import { MAX_TASK_NAME_LENGTH } from './agent-path.ts';
import type { SubagentManager, SubagentMode } from './subagent-manager.ts';

/** The five subagent tools, by name. They stay model-facing when code mode is on. */
export const SUBAGENT_TOOL_NAMES = Object.freeze([
  'spawn_subagent',
  'send_message_to_subagent',
  'interject_subagent',
  'wait_for_subagents',
  'list_subagents',
] as const);

/** The tools through which the model drives one run's subagents. */
export function subagentTools(manager: SubagentManager): Tool[] {
  const kinds = manager.kinds.map((kind) => kind.kind);
  const kindList = manager.kinds.map((kind) => `- ${kind.kind}: ${kind.description}`).join('\n');
  const mode = (wait: string, go: string) => ({ type: 'string', enum: ['sync', 'async'], description: `sync ${wait}; async ${go}.` });
  return [
    defineTool({
      name: 'spawn_subagent',
      description:
        'Start a new subagent on an independent task. In sync mode this call returns its response; in async mode it returns at once ' +
        'and the response comes from wait_for_subagents. Sync spawns requested together still run in parallel. Name the task with a short ' +
        'lowercase task_name, unique among your subagents: it becomes the subagent id, its path beneath you.',
      input: {
        type: 'object',
        properties: {
          kind: { type: 'string', enum: kinds, description: `The kind of subagent to start.\n${kindList}` },
          task_name: {
            type: 'string',
            pattern: '^[a-z0-9_]+$',
            maxLength: MAX_TASK_NAME_LENGTH,
            description: 'A short name for the task: lowercase letters, digits and underscores.',
          },
          task: { type: 'string', description: 'The independent task to delegate, with everything the subagent needs to know.' },
          mode: mode('waits for the response in this call', 'returns while the subagent works'),
        },
        required: ['kind', 'task_name', 'task', 'mode'],
        additionalProperties: false,
      },
      execute: (input, binding) => {
        const { kind, task_name, task, mode: how } = input as { kind: string; task_name: string; task: string; mode: SubagentMode };
        return manager.spawn({ kind, taskName: task_name, task, mode: how }, binding);
      },
    }),
    defineTool({
      name: 'send_message_to_subagent',
      description:
        'Give an existing subagent (active, or persisted by an earlier conversation turn, which is restored first) a follow-up turn. ' +
        'Messages run in order after its current turn and never interrupt it: to steer, ask for status or ask it to finish while it works, ' +
        'use interject_subagent. In sync mode this call returns that turn’s response; in async mode it queues the turn and returns.',
      input: {
        type: 'object',
        properties: {
          subagent_id: { type: 'string', description: 'The subagent id (its path, e.g. /root/research_prices).' },
          message: { type: 'string', description: 'The follow-up task or context.' },
          mode: mode('waits for this turn', 'queues it and returns'),
        },
        required: ['subagent_id', 'message', 'mode'],
        additionalProperties: false,
      },
      execute: (input, binding) => {
        const { subagent_id, message, mode: how } = input as { subagent_id: string; message: string; mode: SubagentMode };
        return manager.sendMessage({ subagentId: subagent_id, message, mode: how }, binding);
      },
    }),
    defineTool({
      name: 'interject_subagent',
      description:
        'Interrupt a subagent that is running a turn: the message reaches it before its next model call. This call waits for that model ' +
        'response and returns its text, whether the same response also started tool work, and the subagent’s status. It does not stop the ' +
        'subagent: its turn goes on unless the message asks it to finish.',
      input: {
        type: 'object',
        properties: {
          subagent_id: { type: 'string', description: 'The id of a subagent that is running.' },
          message: { type: 'string', description: 'A status question, steering, or a request to finish.' },
        },
        required: ['subagent_id', 'message'],
        additionalProperties: false,
      },
      execute: (input, binding) => {
        const { subagent_id, message } = input as { subagent_id: string; message: string };
        return manager.interject({ subagentId: subagent_id, message }, binding);
      },
    }),
    defineTool({
      name: 'wait_for_subagents',
      description:
        'Wait a while for the given subagents (all of them when omitted) to finish. still_working is the normal answer when they need longer ' +
        'than this check-in window: call again to keep waiting; it never cancels them. A finished turn’s result is its response. While newer ' +
        'work is queued, running, failed or cancelled, the last successful result is shown as previous_response, for context only: it is not ' +
        'the result of the newer work.',
      input: {
        type: 'object',
        properties: {
          subagent_ids: { type: 'array', items: { type: 'string' }, description: 'The subagents to wait for; omit to wait for all.' },
        },
        additionalProperties: false,
      },
      execute: (input, binding) => manager.wait({ subagentIds: (input as { subagent_ids?: string[] }).subagent_ids }, binding),
    }),
    defineTool({
      name: 'list_subagents',
      description:
        'List your subagents, active and persisted, newest first, without restoring any. Filter by kind. For the next page pass the ' +
        'next_cursor of the previous answer exactly.',
      input: {
        type: 'object',
        properties: {
          kind: { type: 'string', enum: kinds },
          limit: { type: 'integer', minimum: 1, maximum: 100 },
          cursor: { type: 'string' },
        },
        additionalProperties: false,
      },
      execute: (input) => manager.list(input as { kind?: string; limit?: number; cursor?: string }),
    }),
  ];
}
