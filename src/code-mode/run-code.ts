import { ConfigurationError } from '../error/configuration-error.ts';
import { CleanupError } from '../error/control-errors.ts';
import { failure, invokeTool } from '../tool/invoke-tool.ts';
import { CODE_APPROVAL_REFUSED } from '../agent/tool-executor.ts';
import { RunTools } from '../tool/run-tools.ts';
import type { Tool } from '../tool/tool.ts';
import type { ToolBinding } from '../tool/tool-binding.ts';
import type { ToolBroker } from '../tool/tool-broker.ts';
import type { ToolDeclaration } from '../tool/tool-declaration.ts';
import type { ToolCallResult } from '../tool/tool-result.ts';
import { randomId } from '../util/id.ts';
import { Semaphore } from '../util/semaphore.ts';
import { boundedValue } from '../util/json-preview.ts';
import { truncateMiddle, utf8Length } from '../util/truncate.ts';
import { CodeCatalog } from './code-catalog.ts';
import type { CodeEngine } from './code-engine.ts';
import { resolveCodeLimits } from './code-limits.ts';
import type { CodeLimits } from './code-limits.ts';
import { CodeLimitError } from './code-limit-error.ts';
import { CodeProgram } from './code-program.ts';
import { CodeProgramError } from './code-program-error.ts';
import { defaultCodeEngine } from './quickjs/default-code-engine.ts';

/** Options of {@link runCode}. */
export interface RunCodeOptions {
  /**
   * What `tools` offers the program: tool declarations (called with validation, `availableIf`, exclusive
   * locks and result normalisation, outside any run), or a `ToolBroker` such as a run's executor (then
   * its hooks, limits and events apply too).
   */
  tools?: readonly ToolDeclaration[] | ToolBroker;
  /** The program's `input` (JSON): the `input` global, and `run({ input, tools })` for module programs. */
  input?: unknown;
  /** Program limits (`programs`, `observeMs` do not apply here). */
  limits?: Partial<CodeLimits>;
  /** The engine (default: {@link defaultCodeEngine}, QuickJS from the package, in every runtime). */
  engine?: CodeEngine;
  /** Stops the program (it rejects with the abort reason). */
  signal?: AbortSignal;
  /** Application context handed to tools through `binding.run.invocation.context` (tool declarations only). */
  context?: Record<string, unknown>;
}

/** What a program produced. */
export interface RunCodeResult {
  /** Its return value (or the value passed to `exit`), as JSON. */
  readonly value: unknown;
  /** Everything it wrote with `text`, joined with newlines. */
  readonly output: string;
  /**
   * Its tool calls, in the order they finished. Arguments and values whose JSON is longer than 8,192
   * characters are kept as `{ truncated: true, preview }`, and content is cut to about 10,000 tokens.
   */
  readonly toolCalls: readonly ToolCallResult[];
}

/**
 * Runs one program in a fresh QuickJS context, with no model involved. The
 * source is either a script body (top-level `await` and `return` allowed) or,
 * in the Little Workflow `code.run` style, a module whose
 * `export async function run({ input, tools })` is called; TypeScript syntax
 * is accepted. Tool calls are `caller: "code"`.
 *
 * Resolves with the return value and output; rejects with `CodeProgramError`
 * when the program throws, `CodeLimitError` when it reaches a limit, and the
 * abort reason when `signal` aborts.
 *
 * @example
 * const { value } = await runCode(
 *   'export async function run({ input, tools }) { return (await tools.lookup({ id: input.id })).name; }',
 *   { tools: [lookup], input: { id: 7 } },
 * );
 */
export async function runCode(source: string, options: RunCodeOptions = {}): Promise<RunCodeResult> {
  const limits = resolveCodeLimits(options.limits);
  if (utf8Length(source) > limits.sourceBytes) throw new CodeLimitError('source', 'code-mode source exceeds the limit');
  const engine = options.engine ?? defaultCodeEngine();
  const signal = options.signal ?? new AbortController().signal;
  const binding = standaloneBinding(signal, options.context);
  const owned = isBroker(options.tools) ? undefined : await RunTools.resolve(options.tools ?? [], binding);
  try {
    const broker = isBroker(options.tools) ? options.tools : toolsBroker(owned!, binding);
    const catalog = new CodeCatalog(broker.list());
    const toolCalls: ToolCallResult[] = [];
    const runId = randomId();
    const program = CodeProgram.start({
      engine,
      source,
      catalog,
      limits,
      input: options.input,
      signal,
      dispatch: async (entry, args, callNumber) => {
        const result = await broker.call({ toolCallId: `code-${runId}-${callNumber}`, toolName: entry.toolName, input: args }, { caller: 'code' });
        toolCalls.push(callRecord(result));
        return result;
      },
    });
    const outcome = await program.done;
    const output = program.drainOutput();
    const settled = await program.settled(limits.cleanupMs);
    if (outcome.status === 'failed') throw outcome.error;
    if (!settled) throw new CleanupError({ errors: [], message: 'Code-mode nested tool cleanup timed out' });
    if (outcome.status === 'error') throw new CodeProgramError(outcome.error, output);
    if (outcome.status === 'terminated') throw new CodeProgramError('The program was stopped', output);
    return { value: outcome.value, output, toolCalls };
  } finally {
    const failures = (await owned?.close()) ?? [];
    if (failures.length > 0) throw new CleanupError({ errors: failures, message: 'Closing the tools of the program failed' });
  }
}

/**
 * What `toolCalls` keeps of one call: arguments and value whole up to `PREVIEW_CHARS` of JSON, otherwise a
 * `{ truncated: true, preview }`, and the content cut the way a model would see it, so a program making a
 * thousand calls with megabyte arguments does not make the host keep them all.
 */
function callRecord(result: ToolCallResult): ToolCallResult {
  const input = boundedValue(result.input);
  const value = boundedValue(result.value);
  const content = truncateMiddle(result.content, RECORD_CONTENT_TOKENS).text;
  return input === result.input && value === result.value && content === result.content ? result : { ...result, input, value, content };
}

/** The approximate tokens of content a call record keeps (the executor's default for model-visible results). */
const RECORD_CONTENT_TOKENS = 10_000;

function isBroker(tools: RunCodeOptions['tools']): tools is ToolBroker {
  return typeof tools === 'object' && tools !== null && !Array.isArray(tools) && typeof (tools as ToolBroker).call === 'function';
}

function standaloneBinding(signal: AbortSignal, context: Record<string, unknown> | undefined): ToolBinding {
  const runId = randomId();
  return {
    run: {
      runId,
      invocation: Object.freeze({ runId, sessionId: runId, actorId: undefined, context: Object.freeze({ ...context }), metadata: Object.freeze({}), deadline: undefined }),
    },
    agent: { name: 'runCode' },
    state: {},
    signal,
  };
}

/** A broker over resolved tools: lookup, `invokeTool` (validation, normalisation) and the exclusive lock. */
function toolsBroker(tools: RunTools, binding: ToolBinding): ToolBroker {
  const exclusive = new Semaphore(1);
  return {
    list: (): Tool[] => tools.list(),
    call: async (request, options) => {
      const tool = tools.get(request.toolName);
      if (!tool) throw new ConfigurationError(`Unknown tool: ${request.toolName}`);
      const callBinding = { ...binding, toolCallId: request.toolCallId, caller: options.caller };
      if (tool.needsApproval) {
        // Outside a run nobody can approve: a call that needs approval is refused, never run.
        const checked = await tool.input.check(request.input);
        if (checked.success && (tool.needsApproval === true || (await tool.needsApproval(checked.value, callBinding)))) {
          const base = { toolCallId: request.toolCallId, toolName: request.toolName, input: request.input, caller: options.caller };
          return failure(base, `Tool ${request.toolName} ${CODE_APPROVAL_REFUSED}`, undefined);
        }
      }
      const invoke = () => invokeTool(tool, request, callBinding);
      return tool.exclusive ? exclusive.run(invoke) : invoke();
    },
  };
}
