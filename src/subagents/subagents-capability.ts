import { CAPABILITY_ORDER } from '../agent/run-capability.ts';
import type { RunCapability } from '../agent/run-capability.ts';
import { ConfigurationError } from '../error/configuration-error.ts';
import { checkAgentPath, ROOT_AGENT_PATH } from './agent-path.ts';
import { checkDeclarations, resolveKinds } from './subagent-declaration.ts';
import type { SubagentDeclaration, SubagentResolver } from './subagent-declaration.ts';
import { resolveSubagentLimits } from './subagent-limits.ts';
import type { SubagentLimits } from './subagent-limits.ts';
import { SubagentManager } from './subagent-manager.ts';
import { parentLink, SubagentPersistence } from './subagent-persistence.ts';
import { SUBAGENT_TOOL_NAMES, subagentTools } from './subagent-tools.ts';

declare module '../agent/invocation.ts' {
  interface AskOptions {
    /**
     * The agent path of this run (default `/root`): a subagent's own runs are
     * `/root/<task_name>`, so the subagents they spawn sit beneath them. Set by
     * `ghostlight/subagents` for the child runs it starts.
     */
    subagentPath?: string | undefined;
  }
}

/** Options of {@link subagents}. */
export interface SubagentsOptions extends Partial<SubagentLimits> {
  /** More kinds, resolved for each run from its binding; a kind declared statically wins. */
  resolve?: SubagentResolver | undefined;
}

/**
 * Subagents as a run capability (SPEC A14): the agent gets five tools —
 * `spawn_subagent`, `send_message_to_subagent`, `interject_subagent`,
 * `wait_for_subagents`, `list_subagents` — to run named child agents of the
 * declared kinds concurrently, message them, interject and wait for them.
 * Each child turn is a run of the declared agent with only its own tools,
 * the parent's identity, context, signal and deadline; the parent's
 * cancellation and close reach every child, and closing is bounded by
 * `closeTimeoutMs`. With a session store on the run (`sessions`), kinds with
 * `persist` (the default) keep their registry and conversations in it, and a
 * later run of the same session continues them.
 *
 * The tools are ordinary tools (counted, with tool events and hooks) that
 * stay model-facing under code mode. Every lifecycle change is a `subagent`
 * event in the parent's log, without message content.
 *
 * @example
 * import { subagents } from 'ghostlight/subagents';
 * const lead = defineAgent({
 *   name: 'lead',
 *   model,
 *   capabilities: [subagents([{ kind: 'researcher', agent: researcher, description: 'Researches one question' }])],
 * });
 */
export function subagents(declarations: readonly SubagentDeclaration[] | SubagentResolver, options: SubagentsOptions = {}): RunCapability {
  if (typeof options !== 'object' || options === null) throw new ConfigurationError('subagents() takes subagent options');
  const { resolve: extra, ...limitOptions } = options;
  const limits = resolveSubagentLimits(limitOptions);
  const declared = typeof declarations === 'function' ? [] : checkDeclarations(declarations, 'subagents()');
  const resolver = typeof declarations === 'function' ? declarations : extra;
  if (typeof declarations === 'function' && extra !== undefined) throw new ConfigurationError('subagents() takes one resolver');
  if (resolver !== undefined && typeof resolver !== 'function') throw new ConfigurationError('resolve must be a function of the run binding');
  return {
    version: 'run-capability-v1',
    name: 'subagents',
    order: CAPABILITY_ORDER.application,
    optionKeys: ['subagentPath'],
    async setup({ binding, scope, options: ask, emit }) {
      const kinds = await resolveKinds(declared, resolver, binding);
      if (kinds.length === 0) return {};
      const parentPath = checkPath(ask.subagentPath);
      const { invocation } = binding.run;
      const store = ask.sessions;
      let persistence: SubagentPersistence | undefined;
      let restored;
      if (store && kinds.some((kind) => kind.persist)) {
        const link = await parentLink(invocation.actorId, parentPath === ROOT_AGENT_PATH ? invocation.sessionId : `${invocation.sessionId}\u0000${parentPath}`);
        persistence = new SubagentPersistence({ store, actorId: invocation.actorId, link, parentPath });
        restored = await persistence.loadRegistry();
      }
      const manager = new SubagentManager({ kinds, limits, invocation, signal: binding.signal, parentPath, emit, persistence, restored, operation: binding.operation });
      scope.defer(() => manager.close());
      return {
        tools: subagentTools(manager),
        keepModelFacing: SUBAGENT_TOOL_NAMES,
        expectedRepeat: (call, result) =>
          call.toolName === 'wait_for_subagents' && result.status === 'success' && (result.value as { status?: unknown } | undefined)?.status === 'still_working',
      };
    },
  };
}

function checkPath(path: string | undefined): string {
  if (path === undefined) return ROOT_AGENT_PATH;
  try {
    return checkAgentPath(path);
  } catch (error) {
    throw new ConfigurationError(`subagentPath is not an agent path: ${(error as Error).message}`);
  }
}
