import type { LanguageModel } from 'ai';
import type { Operation } from '../instrumentation/operation.ts';
import type { ModelCapabilityOverrides } from '../model/model-capabilities.ts';
import { createCapabilitySnapshot } from '../registry/capability-snapshot.ts';
import { resolveSchema } from '../schema/resolve-schema.ts';
import type { JsonSchema } from '../schema/json-schema.ts';
import type { ResultStrategy } from '../structured/result-schema.ts';
import { ConfigurationError } from '../error/configuration-error.ts';
import type { Tool } from '../tool/tool.ts';
import { askModel } from './ask-model.ts';
import { compilePlan } from './compile-plan.ts';
import type { CompiledPlan } from './compile-plan.ts';
import type { PlannedWorkflow } from './planned-workflow.ts';
import { isPlannedWorkflow } from './planned-workflow.ts';
import { plannerInstructions, plannerPrompt } from './planner-prompt.ts';
import { resolveWorkflowTools } from './workflow-tools.ts';
import type { RunToolsOption } from './workflow-tools.ts';
import { createWorkflowVersion } from './workflow-version.ts';
import type { WorkflowVersion } from './workflow-version.ts';
import { WorkflowCompileError } from './workflow-errors.ts';
import { mcpListingSnapshot } from './mcp-listing.ts';
import type { McpGateway } from './mcp-gateway.ts';
import { versionWorkflows } from './version-workflows.ts';

/** Options of {@link planWorkflow}. */
export interface PlanWorkflowOptions {
  /** The planner model. */
  readonly model: LanguageModel;
  /** The run's tools, for a workflow that names its tools. */
  readonly tools?: RunToolsOption;
  /**
   * An MCP gateway whose `mcp_list_tools`/`mcp_call_tool` the workflow may name. When the workflow names
   * `mcp_call_tool`, the planner is also shown the servers' tools (listed through the gateway, which connects).
   */
  readonly gateway?: McpGateway;
  /** What the planner model can do, over the built-in table (needed for models it does not know). */
  readonly modelCapabilities?: ModelCapabilityOverrides;
  /** How the planner returns its plan (default `auto`). */
  readonly strategy?: ResultStrategy;
  /** Stops planning. */
  readonly signal?: AbortSignal;
  /** The operation the planner's model run reports inside (instrumented runs). */
  readonly parentOperation?: Operation;
}

/**
 * Asks the planner model for a plan and compiles it into an immutable {@link WorkflowVersion}. The planner
 * sees the workflow's description, its input and output schemas, and its tools' descriptions and schemas; it
 * executes nothing. The plan comes back through structured results with one repair turn, which shows the
 * planner why its plan did not compile. Throws `WorkflowMissingToolError` for a tool the run lacks,
 * `StructuredResultError` when the repaired plan still does not compile.
 *
 * @example
 * const version = await planWorkflow(review, { model: planner, tools: registry });
 * await kv.put('review:v1', JSON.stringify(version));
 */
export async function planWorkflow(workflow: PlannedWorkflow, options: PlanWorkflowOptions): Promise<WorkflowVersion> {
  if (!isPlannedWorkflow(workflow)) throw new ConfigurationError('planWorkflow takes a workflow made by definePlannedWorkflow or defineWorkflow');
  const tools = resolveWorkflowTools(workflow.name, workflow.tools, options.tools, options.gateway?.tools ?? []);
  const inputSchema = schemaOf(workflow.input, `The input schema of workflow ${workflow.name}`);
  const outputSchema = schemaOf(workflow.output, `The output schema of workflow ${workflow.name}`);
  let compiled: CompiledPlan | undefined;
  const planResult = {
    '~standard': {
      version: 1,
      vendor: 'ghostlight',
      jsonSchema: { input: () => PLAN_RESULT_SCHEMA },
      async validate(value: unknown) {
        const text = (value as { plan?: unknown } | null)?.plan;
        if (typeof text !== 'string') return { issues: [{ message: 'must be the plan as JSON text', path: ['plan'] }] };
        try {
          compiled = await compilePlan(JSON.parse(text), tools.keys());
          return { value };
        } catch (error) {
          const message = WorkflowCompileError.isInstance(error) ? error.message : 'is not valid JSON';
          return { issues: [{ message: `must be a plan that compiles: ${oneLine(message)}`, path: ['plan'] }] };
        }
      },
    },
  };
  const mcpTools = options.gateway && tools.has('mcp_call_tool') ? await options.gateway.list(options.signal) : undefined;
  await askModel({
    model: options.model,
    name: `${workflow.name}-planner`,
    result: { schema: planResult, name: 'workflow_plan', description: 'The workflow plan.', ...(options.strategy ? { strategy: options.strategy } : {}) },
    instructions: plannerInstructions(),
    prompt: plannerPrompt({ name: workflow.name, description: workflow.description, inputSchema, outputSchema, tools, mcpTools }),
    modelCapabilities: options.modelCapabilities,
    signal: options.signal,
    parentOperation: options.parentOperation,
  });
  return versionOf(workflow, compiled!, [...tools.values()], inputSchema, outputSchema, mcpTools ? await mcpListingSnapshot(mcpTools) : undefined);
}

/**
 * Compiles a plan written by hand (or by a planner elsewhere) into a version, as {@link planWorkflow} does
 * with the planner's. Throws `WorkflowCompileError` or `WorkflowMissingToolError`.
 *
 * @example
 * const version = await compileWorkflow(review, plan, { tools: registry });
 */
export async function compileWorkflow(
  workflow: PlannedWorkflow,
  plan: unknown,
  options: { readonly tools?: RunToolsOption; readonly gateway?: McpGateway } = {},
): Promise<WorkflowVersion> {
  const tools = resolveWorkflowTools(workflow.name, workflow.tools, options.tools, options.gateway?.tools ?? []);
  const compiled = await compilePlan(plan, tools.keys());
  return versionOf(
    workflow,
    compiled,
    [...tools.values()],
    schemaOf(workflow.input, `The input schema of workflow ${workflow.name}`),
    schemaOf(workflow.output, `The output schema of workflow ${workflow.name}`),
  );
}

const PLAN_RESULT_SCHEMA = {
  type: 'object',
  properties: { plan: { type: 'string', description: 'The workflow-plan-v1 document as JSON text.' } },
  required: ['plan'],
  additionalProperties: false,
};

async function versionOf(
  workflow: PlannedWorkflow,
  compiled: CompiledPlan,
  tools: readonly Tool[],
  inputSchema: JsonSchema | null,
  outputSchema: JsonSchema | null,
  mcpSnapshot?: Record<string, string>,
): Promise<WorkflowVersion> {
  const snapshot = await createCapabilitySnapshot(tools);
  const version = await createWorkflowVersion({ workflow: workflow.name, plan: compiled.plan, snapshot, inputSchema, outputSchema, ...(mcpSnapshot ? { mcpSnapshot } : {}) });
  versionWorkflows.set(version, workflow);
  return version;
}

function schemaOf(schema: object | undefined, what: string): JsonSchema | null {
  return schema === undefined ? null : resolveSchema(schema, what).jsonSchema;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').slice(0, 2_000);
}
