import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { CancelledError, createToolRegistry, DeadlineExceededError, defineTool, Instrumentation, RunFailedError, ToolError } from 'ghostlight';
import type { Tool } from 'ghostlight';
import {
  compileWorkflow,
  definePlannedWorkflow,
  loadWorkflowVersion,
  memoryWorkflowRunStore,
  runWorkflow,
  WorkflowMissingToolError,
} from 'ghostlight/workflows';
import type { WorkflowRun, WorkflowVersion } from 'ghostlight/workflows';
import { defineWorkflow } from 'ghostlight/assemblies';
import { candidateTools, seedPlan } from '../support/workflow-fixtures';
import { plannerModel, promptText, textModel } from '../support/workflow-models';

const review = definePlannedWorkflow({
  name: 'candidate-review',
  description: 'Shortlist the strongest candidates of a job and check their backgrounds.',
  input: v.strictObject({ jobId: v.string() }),
  output: v.object({ count: v.number(), best: v.unknown() }),
  tools: ['fetchCandidates', 'scoreCandidate', 'lookupBackgroundCheck'],
});

const plan = (...steps: unknown[]) => ({ version: 'workflow-plan-v1', steps });
const toolEvents = (run: WorkflowRun) => run.events.filter((event) => event.type === 'tool-start').map((event) => `${event.stepId}:${event.toolName}:${event.caller}`);

describe('running a workflow version', () => {
  it('runs the seed plan: tool.call, then code.run with the tools proxy (caller "code"), then a call on its output', async () => {
    const { calls, tools } = candidateTools();
    const registry = createToolRegistry(tools);
    const version = await compileWorkflow(review, seedPlan(), { tools: registry });
    const run = await runWorkflow(version, { jobId: 'j-7' }, { tools: registry });

    expect(run.error).toBeUndefined();
    expect(run.status).toBe('completed');
    expect(run.output).toEqual({ count: 2, best: { candidateId: 'c1', score: 0.95 } });
    expect(run.versionId).toBe(version.id);
    expect(run.planned).toBe(false);
    expect(run.steps.map((step) => [step.id, step.status])).toEqual([['fetch', 'completed'], ['filter-top-candidates', 'completed'], ['score', 'completed']]);
    expect(run.steps[1]!.input).toEqual({ jobId: 'j-7' });
    expect(run.steps[1]!.output).toEqual({ count: 2, top: [{ candidateId: 'c1', clear: true }, { candidateId: 'c3', clear: false }] });
    expect(run.steps[1]!.toolCalls.map((call) => [call.toolName, call.caller, call.status])).toEqual([
      ['fetchCandidates', 'code', 'success'],
      ['lookupBackgroundCheck', 'code', 'success'],
      ['lookupBackgroundCheck', 'code', 'success'],
    ]);
    expect(run.steps[0]!.toolCalls[0]).toMatchObject({ toolName: 'fetchCandidates', caller: 'application', input: { jobId: 'j-7' } });
    expect(toolEvents(run)).toEqual([
      'fetch:fetchCandidates:application',
      'filter-top-candidates:fetchCandidates:code',
      'filter-top-candidates:lookupBackgroundCheck:code',
      'filter-top-candidates:lookupBackgroundCheck:code',
      'score:scoreCandidate:application',
    ]);
    expect(run.events[0]).toMatchObject({ type: 'workflow-start', versionId: version.id, sequence: 0 });
    expect(run.events.at(-1)).toMatchObject({ type: 'workflow-stop', status: 'completed' });
    expect(calls).toEqual(['fetchCandidates:j-7', 'fetchCandidates:j-7', 'lookupBackgroundCheck:c1', 'lookupBackgroundCheck:c3', 'scoreCandidate:c1']);
  });

  it('runs steps in dependency order, independent ones at once, at most 8 (or the concurrency given)', async () => {
    const gate = (limit: number, total: number) => {
      let active = 0;
      let started = 0;
      let most = 0;
      let release: () => void = () => undefined;
      let opened = new Promise<void>((resolve) => (release = resolve));
      const tool = defineTool({
        name: 'work',
        description: 'Do one piece of work.',
        input: v.strictObject({ n: v.number() }),
        async execute({ n }) {
          active++;
          started++;
          most = Math.max(most, active);
          if (active === limit || started === total) {
            release();
          }
          await opened;
          active--;
          if (active === 0) opened = new Promise<void>((resolve) => (release = resolve));
          return n * 2;
        },
      }) as Tool;
      return { tool, most: () => most };
    };
    const wide = definePlannedWorkflow({ name: 'wide', description: 'Ten independent pieces of work.', tools: ['work'] });
    const steps = Array.from({ length: 10 }, (_, index) => ({ id: `w${index}`, uses: 'tool.call', with: { tool: 'work' }, input: { n: index } }));
    const outputTemplate = Object.fromEntries(steps.map((step) => [step.id, `{{ steps.${step.id}.output }}`]));
    for (const [concurrency, expected] of [[undefined, 8], [2, 2]] as const) {
      const { tool, most } = gate(expected, 10);
      const tools = createToolRegistry({ work: tool });
      const version = await compileWorkflow(wide, { ...plan(...steps), output: outputTemplate }, { tools });
      const run = await runWorkflow(version, {}, { tools, ...(concurrency ? { concurrency } : {}) });
      expect(run.status).toBe('completed');
      expect(most()).toBe(expected);
      expect(run.output).toEqual(Object.fromEntries(steps.map((step, index) => [step.id, index * 2])));
    }

    const order: string[] = [];
    const note = defineTool({
      name: 'note',
      description: 'Note a step.',
      input: v.strictObject({ step: v.string(), after: v.optional(v.array(v.unknown())) }),
      execute: ({ step }) => {
        order.push(step);
        return step;
      },
    }) as Tool;
    const diamond = definePlannedWorkflow({ name: 'diamond', description: 'A diamond.', tools: ['note'] });
    const tools = createToolRegistry({ note });
    const version = await compileWorkflow(
      diamond,
      {
        ...plan(
          { id: 'd', uses: 'tool.call', needs: ['b', 'c'], with: { tool: 'note' }, input: { step: 'd', after: ['{{ steps.b.output }}', '{{ steps.c.output }}'] } },
          { id: 'b', uses: 'tool.call', needs: ['a'], with: { tool: 'note' }, input: { step: 'b' } },
          { id: 'c', uses: 'tool.call', needs: ['a'], with: { tool: 'note' }, input: { step: 'c' } },
          { id: 'a', uses: 'tool.call', with: { tool: 'note' }, input: { step: 'a' } },
        ),
        output: '{{ steps.d.output }} after {{ steps.b.output }} and {{ steps.c.output }}',
      },
      { tools },
    );
    const run = await runWorkflow(version, {}, { tools, concurrency: 1 });
    expect(run.output).toBe('d after b and c');
    expect(order[0]).toBe('a');
    expect(order[3]).toBe('d');
    expect(run.steps.find((step) => step.id === 'd')!.input).toEqual({ step: 'd', after: ['b', 'c'] });
  });

  it('runs ai.generate with no tools, as text or as a checked object', async () => {
    const model = textModel((call) => (call.responseFormat?.type === 'json' ? '{"verdict":"hire","reasons":["compilers"]}' : 'Ada is the strongest candidate.'));
    const { tools } = candidateTools();
    const registry = createToolRegistry(tools);
    const summary = definePlannedWorkflow({ name: 'summary', description: 'Summarise the candidates.', tools: ['fetchCandidates'] });
    const version = await compileWorkflow(
      summary,
      {
        ...plan(
          { id: 'fetch', uses: 'tool.call', with: { tool: 'fetchCandidates' }, input: { jobId: '{{ input.jobId }}' } },
          { id: 'write', uses: 'ai.generate', needs: ['fetch'], with: { prompt: 'Summarise job {{ input.jobId }}.', instructions: 'Be brief.' }, input: { first: '{{ steps.fetch.output.candidates[0].name }}' }, output: { mode: 'text' } },
          {
            id: 'decide',
            uses: 'ai.generate',
            needs: ['write'],
            with: { prompt: 'Decide from: {{ steps.write.output }}' },
            output: { mode: 'object', schema: { type: 'object', properties: { verdict: { type: 'string', enum: ['hire', 'pass'] }, reasons: { type: 'array', items: { type: 'string' } } }, required: ['verdict', 'reasons'], additionalProperties: false } },
          },
        ),
        output: { summary: '{{ steps.write.output }}', decision: '{{ steps.decide.output }}' },
      },
      { tools: registry },
    );
    const run = await runWorkflow(version, { jobId: 'j-7' }, { tools: registry, model, modelCapabilities: { nativeStructuredOutput: true, tools: true, toolChoice: true } });
    expect(run.error).toBeUndefined();
    expect(run.output).toEqual({ summary: 'Ada is the strongest candidate.', decision: { verdict: 'hire', reasons: ['compilers'] } });
    expect(model.calls).toHaveLength(2);
    expect(model.calls.every((call) => (call.tools ?? []).length === 0)).toBe(true);
    expect(promptText(model.calls[0]!)).toBe('Be brief.\nSummarise job j-7.\n\nInput:\n{"first":"Ada"}');
    expect(promptText(model.calls[1]!)).toContain('Decide from: Ada is the strongest candidate.');
    expect(run.steps.map((step) => step.modelCalls)).toEqual([0, 1, 1]);
  });

  it('fails with capability_drift when a locked tool changed, and keeps the run', async () => {
    const original = candidateTools();
    const version = await compileWorkflow(review, seedPlan(), { tools: createToolRegistry(original.tools) });
    const changed = candidateTools({ scoreDescription: 'Score one candidate from 0 to 100.' });
    const store = memoryWorkflowRunStore();
    const run = await runWorkflow(version, { jobId: 'j-7' }, { tools: createToolRegistry(changed.tools), store });

    expect(run.status).toBe('failed');
    expect(RunFailedError.isInstance(run.error)).toBe(true);
    expect((run.error as RunFailedError).causeCode).toBe('capability_drift');
    expect(run.error!.message).toBe(`Tool scoreCandidate no longer matches the capability snapshot of workflow version ${version.id}; plan the workflow again`);
    expect(run.steps.every((step) => step.status === 'pending')).toBe(true);
    expect(changed.calls).toEqual([]);
    expect(await store.get(run.id)).toBe(run);
    expect(JSON.parse(JSON.stringify(run.errorInfo))).toEqual({ type: 'RunFailedError', message: run.error!.message, causeCode: 'capability_drift' });
    expect(run.events.at(-1)).toMatchObject({ type: 'workflow-stop', status: 'failed' });
  });

  it('plans when given a workflow and reuses a version without calling the planner again', async () => {
    const { tools } = candidateTools();
    const registry = createToolRegistry(tools);
    const planner = plannerModel(seedPlan());
    const first = await runWorkflow(review, { jobId: 'j-1' }, { tools: registry, planner, plannerStrategy: 'provider' });
    expect(first.status).toBe('completed');
    expect(first.planned).toBe(true);
    expect(planner.calls).toHaveLength(1);

    const version = await compileWorkflow(review, seedPlan(), { tools: registry });
    expect(first.versionId).toBe(version.id);
    const second = await runWorkflow(version, { jobId: 'j-2' }, { tools: registry });
    const third = await runWorkflow(version, { jobId: 'j-3' }, { tools: registry });
    expect(planner.calls).toHaveLength(1);
    expect([second.planned, third.planned, second.versionId, third.versionId]).toEqual([false, false, version.id, version.id]);
    expect([second.input, third.input]).toEqual([{ jobId: 'j-2' }, { jobId: 'j-3' }]);
  });

  it('checks the input and the output against the workflow schemas', async () => {
    const { tools } = candidateTools();
    const registry = createToolRegistry(tools);
    const version = await compileWorkflow(review, { ...seedPlan(), output: { count: 'many' } }, { tools: registry });
    const badOutput = await runWorkflow(version, { jobId: 'j-7' }, { tools: registry });
    expect(badOutput.status).toBe('failed');
    expect((badOutput.error as RunFailedError).causeCode).toBe('invalid_output');
    expect(badOutput.error!.message).toBe('The workflow output does not match its schema: $.best is required; $.count must be number');
    expect(badOutput.steps.every((step) => step.status === 'completed')).toBe(true);

    const badInput = await runWorkflow(version, { jobId: 7 }, { tools: registry });
    expect((badInput.error as RunFailedError).causeCode).toBe('invalid_input');
    expect(badInput.error!.message).toMatch(/^The workflow input does not match its schema: \$\.jobId /);
    expect(badInput.steps.every((step) => step.status === 'pending')).toBe(true);
  });

  it('fails a step whose tool fails and skips what depends on it', async () => {
    const { tools } = candidateTools();
    const broken = defineTool({
      name: 'lookupBackgroundCheck',
      description: 'Look up the background check of a candidate.',
      input: v.strictObject({ candidateId: v.string() }),
      execute: () => {
        throw new ToolError('The background service is down');
      },
    }) as Tool;
    const registry = createToolRegistry({ ...tools, lookupBackgroundCheck: broken });
    const version = await compileWorkflow(review, seedPlan(), { tools: registry });
    const run = await runWorkflow(version, { jobId: 'j-7' }, { tools: registry });
    expect(run.status).toBe('failed');
    expect((run.error as RunFailedError).causeCode).toBe('step_failed');
    expect(run.error!.message).toBe('Step filter-top-candidates (code.run) failed: Error: The background service is down');
    expect(run.steps.map((step) => step.status)).toEqual(['completed', 'failed', 'skipped']);
  });

  it('refuses to run code whose content no longer matches its pinned hash', async () => {
    const { tools } = candidateTools();
    const registry = createToolRegistry(tools);
    const version = await compileWorkflow(review, seedPlan(), { tools: registry });
    const steps = structuredClone(version.plan.steps) as Array<{ with: { files?: Record<string, { content: string }> } }>;
    steps[1]!.with.files!['filter.ts']!.content = 'export async function run() { return { count: 99, top: [] }; }';
    const tampered = { ...version, plan: { ...version.plan, steps } } as unknown as WorkflowVersion;
    const run = await runWorkflow(tampered, { jobId: 'j-7' }, { tools: registry });
    expect((run.error as RunFailedError).causeCode).toBe('code_hash_mismatch');
    expect(run.error!.message).toBe('Step filter-top-candidates: filter.ts no longer matches its pinned sha256');

    const cyclic = { ...version, plan: { ...version.plan, steps: version.plan.steps.map((step) => (step.id === 'fetch' ? { ...step, needs: ['score'] } : step)) } } as unknown as WorkflowVersion;
    await expect(runWorkflow(cyclic, { jobId: 'j-7' }, { tools: registry })).rejects.toThrow('The workflow version has steps that depend on each other in a cycle or on unknown steps');
  });

  it('throws WorkflowMissingToolError at run start and is cancelled by its signal', async () => {
    const { tools } = candidateTools();
    const version = await compileWorkflow(review, seedPlan(), { tools: createToolRegistry(tools) });
    const partial = createToolRegistry({ fetchCandidates: tools.fetchCandidates });
    await expect(runWorkflow(version, { jobId: 'j-7' }, { tools: partial })).rejects.toSatisfy((error: unknown) => WorkflowMissingToolError.isInstance(error));

    const controller = new AbortController();
    controller.abort();
    const run = await runWorkflow(version, { jobId: 'j-7' }, { tools: createToolRegistry(tools), signal: controller.signal });
    expect(run.status).toBe('cancelled');
    expect(CancelledError.isInstance(run.error)).toBe(true);
  });

  it('takes the tools inline (wired into every run) or from a registry, also for a version loaded from JSON', async () => {
    const { calls, tools } = candidateTools();
    const inline = definePlannedWorkflow({ ...review, tools });
    const version = await compileWorkflow(inline, seedPlan());
    const run = await runWorkflow(version, { jobId: 'j-7' });
    expect(run.output).toEqual({ count: 2, best: { candidateId: 'c1', score: 0.95 } });

    const loaded = await loadWorkflowVersion(JSON.parse(JSON.stringify(version)));
    await expect(runWorkflow(loaded, { jobId: 'j-7' })).rejects.toThrow("Workflow candidate-review names tool fetchCandidates, which the run's tools do not have");
    expect((await runWorkflow(loaded, { jobId: 'j-8' }, { workflow: inline })).status).toBe('completed');

    const registryScoped = definePlannedWorkflow({ ...review, tools: createToolRegistry(tools) });
    const fromRegistry = await runWorkflow(await compileWorkflow(registryScoped, seedPlan()), { jobId: 'j-9' });
    expect(fromRegistry.status).toBe('completed');
    expect(calls.filter((call) => call.startsWith('scoreCandidate'))).toEqual(['scoreCandidate:c1', 'scoreCandidate:c1', 'scoreCandidate:c1']);
  });

  it('stops at its deadline and refuses a concurrency above 8 or a missing model', async () => {
    const { tools } = candidateTools();
    const registry = createToolRegistry(tools);
    const version = await compileWorkflow(review, seedPlan(), { tools: registry });
    const late = await runWorkflow(version, { jobId: 'j-7' }, { tools: registry, deadline: Date.now() - 1 });
    expect(late.status).toBe('cancelled');
    expect(DeadlineExceededError.isInstance(late.error)).toBe(true);
    await expect(runWorkflow(version, { jobId: 'j-7' }, { tools: registry, concurrency: 9 })).rejects.toThrow('concurrency must be an integer from 1 to 8');
    await expect(runWorkflow(review, { jobId: 'j-7' }, { tools: registry })).rejects.toThrow('Running workflow candidate-review plans it first: pass a planner (or model)');
    const generating = await compileWorkflow(review, { version: 'workflow-plan-v1', steps: [{ id: 'g', uses: 'ai.generate', with: { prompt: 'Hi' } }] }, { tools: registry });
    await expect(runWorkflow(generating, {}, { tools: registry })).rejects.toThrow('Workflow candidate-review has ai.generate steps: pass a model');
  });

  it('reports workflow, workflow_step, tool and model operations when instrumented', async () => {
    const started: string[] = [];
    const instrumentation = new Instrumentation({
      subscribers: [{ start: (name, attributes, operation) => void started.push(`${operation.parent?.name ?? '-'}>${name}${name === 'tool' ? `:${String(attributes.toolName)}:${String(attributes.caller)}` : name === 'workflow_step' ? `:${String(attributes.stepId)}` : ''}`) }],
    });
    const { tools } = candidateTools();
    const registry = createToolRegistry(tools);
    const run = await runWorkflow(review, { jobId: 'j-7' }, { tools: registry, planner: plannerModel(seedPlan()), plannerStrategy: 'provider', instrumentation });
    expect(run.status).toBe('completed');
    expect(started.slice(0, 2)).toEqual(['->workflow', 'workflow>run']);
    expect(started).toContain('workflow>workflow_step:fetch');
    expect(started).toContain('workflow_step>tool:fetchCandidates:application');
    expect(started.filter((entry) => entry === 'workflow_step>tool:lookupBackgroundCheck:code')).toHaveLength(2);
    expect(started.filter((entry) => entry.endsWith('>model'))).toHaveLength(1);
  });

  it('runs a workflow made by defineWorkflow (ghostlight/assemblies) without perform', async () => {
    const { tools } = candidateTools();
    const registry = createToolRegistry(tools);
    const planned = defineWorkflow({
      name: 'candidate-review',
      description: 'Shortlist the strongest candidates of a job and check their backgrounds.',
      input: v.strictObject({ jobId: v.string() }),
      tools: ['fetchCandidates', 'scoreCandidate', 'lookupBackgroundCheck'],
    });
    const planner = plannerModel(seedPlan());
    const run = await runWorkflow(planned, { jobId: 'j-7' }, { tools: registry, planner, plannerStrategy: 'provider' });
    expect([run.status, run.planned, planner.calls.length]).toEqual(['completed', true, 1]);
    expect(run.output).toEqual({ count: 2, best: { candidateId: 'c1', score: 0.95 } });
  });
});

