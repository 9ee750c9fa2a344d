import type { LanguageModel } from 'ai';
import type { ToolExecutor } from '../agent/tool-executor.ts';
import type { CodeEngine } from '../code-mode/code-engine.ts';
import type { CodeLimits } from '../code-mode/code-limits.ts';
import { runCode } from '../code-mode/run-code.ts';
import { RunFailedError } from '../error/run-failed-error.ts';
import type { Operation } from '../instrumentation/operation.ts';
import type { ModelCapabilityOverrides } from '../model/model-capabilities.ts';
import type { JsonSchema } from '../schema/json-schema.ts';
import { validateJsonSchema } from '../schema/validate-json-schema.ts';
import type { Tool } from '../tool/tool.ts';
import type { ToolBroker } from '../tool/tool-broker.ts';
import type { ToolCallResult } from '../tool/tool-result.ts';
import { ToolError } from '../tool/tool-error.ts';
import { boundedValue } from '../util/json-preview.ts';
import { askModel } from './ask-model.ts';
import { fileHash } from './compile-plan.ts';
import type { WorkflowStep } from './plan-schema.ts';
import { resolveTemplate } from './templates.ts';
import type { TemplateScope } from './templates.ts';
import type { WorkflowStepRecord, WorkflowToolCall } from './workflow-run.ts';

/** What a step runs with. */
export interface StepContext {
  readonly executor: ToolExecutor;
  /** The workflow's tools by id. */
  readonly tools: ReadonlyMap<string, Tool>;
  readonly scope: TemplateScope;
  readonly signal: AbortSignal;
  readonly model: LanguageModel | undefined;
  readonly modelCapabilities: ModelCapabilityOverrides | undefined;
  readonly engine: CodeEngine | undefined;
  readonly codeLimits: Partial<CodeLimits> | undefined;
  /** The step's `workflow_step` operation (instrumented runs): its tool calls and model run nest inside. */
  readonly operation: Operation | undefined;
}

/** Runs one step and returns its output; a step failure throws (a `ToolError` for a failed tool call). */
export async function runStep(step: WorkflowStep, record: WorkflowStepRecord, context: StepContext): Promise<unknown> {
  const input = resolveTemplate(step.input, context.scope);
  record.input = input;
  let output: unknown;
  if (step.uses === 'tool.call') {
    const tool = context.tools.get(step.with.tool)!;
    const result = await context.executor.call({ toolCallId: `${step.id}#1`, toolName: tool.name, input: input ?? {} }, { caller: 'application', parent: context.operation });
    record.toolCalls.push(callRecord(result));
    if (result.status === 'error') throw new ToolError(result.content);
    output = result.value;
  } else if (step.uses === 'ai.generate') {
    output = await generate(step, input, record, context);
  } else {
    output = await runCodeStep(step, input, record, context);
  }
  const schema = step.output?.schema;
  if (step.output?.mode === 'text' && typeof output !== 'string') throw new ToolError(`Step ${step.id} output must be text`);
  if (schema !== undefined && !(step.uses === 'ai.generate' && step.output?.mode === 'object')) {
    const issues = validateJsonSchema(schema as JsonSchema, output);
    if (issues.length > 0) throw new ToolError(`Step ${step.id} output does not match its schema: ${issues.slice(0, 5).join('; ')}`);
  }
  return output;
}

async function generate(step: Extract<WorkflowStep, { uses: 'ai.generate' }>, input: unknown, record: WorkflowStepRecord, context: StepContext): Promise<unknown> {
  const model = context.model!;
  const prompt = `${String(resolveTemplate(step.with.prompt, context.scope))}${input === undefined ? '' : `\n\nInput:\n${JSON.stringify(input)}`}`;
  const instructions = step.with.instructions === undefined ? undefined : String(resolveTemplate(step.with.instructions, context.scope));
  const object = step.output?.mode === 'object';
  const result = await askModel({
    model,
    name: `${step.id}-generate`,
    instructions,
    prompt,
    ...(object ? { result: { schema: step.output!.schema!, name: `${step.id.replace(/-/g, '_')}_output`.slice(0, 64) } } : {}),
    modelCapabilities: context.modelCapabilities,
    signal: context.signal,
    parentOperation: context.operation,
  });
  record.modelCalls += result.modelCalls;
  return result.output;
}

async function runCodeStep(step: Extract<WorkflowStep, { uses: 'code.run' }>, input: unknown, record: WorkflowStepRecord, context: StepContext): Promise<unknown> {
  const file = step.with.files[step.with.entrypoint]!;
  const hash = await fileHash(file.content);
  if (hash !== file.sha256) {
    throw new RunFailedError('code_hash_mismatch', `Step ${step.id}: ${step.with.entrypoint} no longer matches its pinned sha256`);
  }
  let calls = 0;
  const broker: ToolBroker = {
    list: () => context.executor.list(),
    call: async (request, options) => {
      const result = await context.executor.call({ ...request, toolCallId: `${step.id}#code-${++calls}` }, { ...options, parent: context.operation });
      record.toolCalls.push(callRecord(result));
      return result;
    },
  };
  const { value } = await runCode(file.content, {
    tools: broker,
    input,
    signal: context.signal,
    ...(context.engine ? { engine: context.engine } : {}),
    ...(context.codeLimits ? { limits: context.codeLimits } : {}),
  });
  return value;
}

function callRecord(result: ToolCallResult): WorkflowToolCall {
  return {
    toolCallId: result.toolCallId,
    toolName: result.toolName,
    caller: result.caller,
    status: result.status,
    input: boundedValue(result.input),
    value: boundedValue(result.value),
    content: result.content,
    artifacts: result.artifacts,
  };
}
