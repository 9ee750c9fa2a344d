/**
 * Multi-agent composition (SPEC A15): a Workflow (application code), a Swarm
 * (handoffs between member agents) and a Graph (declared routes, bounded
 * parallel branches, error edges). Each answers like an agent (`ask`,
 * `stream`), returns a run with a `trajectory`, and can be a node of another
 * or an agent's tool (`asTool`).
 *
 * @module ghostlight/assemblies
 */
export { AssemblyError, AssemblyLimitError, AssemblyRoutingError, AssemblyStepTimeoutError } from './assembly-errors.ts';
export { MAX_STEP_EVENT_BYTES, MAX_STEP_EVENTS, MAX_STEP_OUTPUT_BYTES } from './assembly-execution.ts';
export type { AssemblyAskOptions } from './assembly-execution.ts';
export { AssemblyRun, isAssemblyRun } from './assembly-run.ts';
export type { AssemblyRunSummary } from './assembly-run.ts';
export { Composite } from './composite.ts';
export { DEFAULT_GRAPH_MAX_CONCURRENCY, DEFAULT_GRAPH_MAX_STEPS, defineGraph, Graph, toMermaid } from './graph.ts';
export type { GraphNodeOptions, GraphSpec } from './graph.ts';
export { GraphBuilder, graphBuilder } from './graph-builder.ts';
export type { GraphState, NodeResult } from './graph-state.ts';
export type { EdgeCondition, GraphEdge, GraphErrorEdge, InputMapper } from './graph-topology.ts';
export { mermaidId } from './mermaid.ts';
export type { ResolvedStepPolicy, RetryOn, StepPolicy } from './step-policy.ts';
export { DEFAULT_MAX_HANDOFF_REPEATS, DEFAULT_SWARM_MAX_STEPS, defineSwarm, HANDOFF_TOOL_NAME, Swarm } from './swarm.ts';
export type { SwarmMemberOptions, SwarmSpec } from './swarm.ts';
export { Trajectory } from './trajectory.ts';
export type { AssemblyStep, StepAttempt, StepTransition } from './trajectory.ts';
export { DEFAULT_PARALLEL_CONCURRENCY, defineWorkflow, Workflow } from './workflow.ts';
export type { InvokeOptions, ParallelOptions, WorkflowContext, WorkflowInvocation, WorkflowSpec } from './workflow.ts';
export type { PlannedWorkflow, PlannedWorkflowSpec } from '../workflows/planned-workflow.ts';
