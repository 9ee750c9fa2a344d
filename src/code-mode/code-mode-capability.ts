import { CAPABILITY_ORDER } from '../agent/run-capability.ts';
import type { RunCapability } from '../agent/run-capability.ts';
import { ConfigurationError } from '../error/configuration-error.ts';
import { CodeCatalog } from './code-catalog.ts';
import type { CodeEngine } from './code-engine.ts';
import { codeModeInstructions } from './code-instructions.ts';
import { resolveCodeLimits } from './code-limits.ts';
import type { CodeLimits } from './code-limits.ts';
import { CODE_MODE_CONTROL_TOOLS, codeModeTools } from './code-mode-tools.ts';
import { CodeSession } from './code-session.ts';
import { CodeSuspension } from './code-replay.ts';
import { toolHash } from '../agent/approvals.ts';
import { defaultCodeEngine } from './quickjs/default-code-engine.ts';

/** Options of `codeMode(options)` (`codeMode()` takes every default). */
export interface CodeModeOptions {
  /** Tools that stay model-facing instead of moving into programs (their model-visible names). */
  except?: readonly string[];
  /** Limits of programs and the session; unknown keys are a `ConfigurationError`. */
  limits?: Partial<CodeLimits>;
  /** The engine (default: {@link defaultCodeEngine}, QuickJS from the package, in every runtime). */
  engine?: CodeEngine;
}

/**
 * Code mode as a run capability: after the tools are resolved it moves every
 * model-facing tool except `except` (and the tools other capabilities keep
 * model-facing, such as the subagent tools) into the program catalog, offers `exec`,
 * `wait` and `stop` (control tools: not counted, no tool events, no exclusive
 * lock) and appends the instructions with the catalog as TypeScript
 * declarations. Programs call catalog tools only through the run's executor
 * (`caller: "code"`), so validation, hooks, limits, locks and events apply as
 * they do to the model. The session closes with the run's scope. Code mode
 * arranges last (`CAPABILITY_ORDER.arrange`), so it sees every other
 * capability's tools.
 *
 * @example
 * import { codeMode } from 'ghostlight/code-mode';
 * defineAgent({ name: 'analyst', model, tools: [orders, refunds], capabilities: [codeMode()] });
 */
export function codeMode(options: CodeModeOptions = {}): RunCapability {
  if (typeof options !== 'object' || options === null) throw new ConfigurationError('codeMode() takes code-mode options');
  const limits = resolveCodeLimits(options.limits);
  const except = new Set(options.except ?? []);
  return {
    version: 'run-capability-v1',
    name: 'code-mode',
    order: CAPABILITY_ORDER.arrange,
    async arrange({ tools, keepModelFacing, broker, binding, scope, emit }) {
      const engine = options.engine ?? defaultCodeEngine();
      const kept = (name: string) => except.has(name) || keepModelFacing.has(name);
      const catalog = new CodeCatalog(tools.filter((tool) => !kept(tool.name)));
      await engine.ready();
      // A program that may reach a call needing approval is journaled, so that it can suspend and be replayed.
      const replayable = tools.some((tool) => !kept(tool.name) && tool.needsApproval);
      const session = new CodeSession({
        engine,
        catalog,
        limits,
        signal: binding.signal,
        operation: binding.operation,
        replayable,
        dispatch: (entry, args, call) =>
          broker.call(
            { toolCallId: call.id, toolName: entry.toolName, input: args },
            {
              caller: 'code',
              parentToolCallId: call.parentToolCallId,
              parent: call.operation,
              onApproval: (request, tool) => {
                if (call.approved()) return 'approved';
                throw new CodeSuspension(tool.name, request.input, call.callNumber, toolHash(tool));
              },
            },
          ),
      });
      scope.defer(() => session.close());
      const controls = codeModeTools(session, limits.observeMs, emit);
      return {
        tools: [...controls, ...tools.filter((tool) => kept(tool.name))],
        extraTools: controls,
        controlTools: CODE_MODE_CONTROL_TOOLS,
        instructions: codeModeInstructions(catalog.entries, limits.observeMs),
      };
    },
  };
}
