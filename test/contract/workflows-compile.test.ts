import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { createToolRegistry, MissingToolError } from 'ghostlight';
import {
  compileWorkflow,
  definePlannedWorkflow,
  loadWorkflowVersion,
  planWorkflow,
  WorkflowCompileError,
  WorkflowMissingToolError,
  workflowPlanJsonSchema,
  WorkflowVersionError,
} from 'ghostlight/workflows';
import { candidateTools, FILTER_SHA256, seedPlan } from '../support/workflow-fixtures';
import { plannerModel, promptText } from '../support/workflow-models';

const review = definePlannedWorkflow({
  name: 'candidate-review',
  description: 'Shortlist the strongest candidates of a job and check their backgrounds.',
  input: v.strictObject({ jobId: v.string() }),
  output: v.object({ count: v.number(), best: v.unknown() }),
  tools: ['fetchCandidates', 'scoreCandidate', 'lookupBackgroundCheck'],
});

const registry = () => createToolRegistry(candidateTools().tools);

async function compileError(plan: unknown): Promise<WorkflowCompileError> {
  const error = await compileWorkflow(review, plan, { tools: registry() }).then(() => undefined, (caught: unknown) => caught);
  if (!WorkflowCompileError.isInstance(error)) throw new Error(`expected a WorkflowCompileError, got ${String(error)}`);
  return error;
}

const step = (id: string, extra: Record<string, unknown> = {}) => ({ id, uses: 'tool.call', with: { tool: 'fetchCandidates' }, input: { jobId: '{{ input.jobId }}' }, ...extra });
const plan = (...steps: unknown[]) => ({ version: 'workflow-plan-v1', steps });

describe('compiling a plan', () => {
  it('compiles the seed plan: needs filled in, the seed file hash kept, sandbox defaults, tools locked', async () => {
    const version = await compileWorkflow(review, seedPlan(), { tools: registry() });
    expect(version.version).toBe('workflow-version-v1');
    expect(version.id).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(version.plan.steps.map((each) => [each.id, each.needs])).toEqual([['fetch', []], ['filter-top-candidates', ['fetch']], ['score', ['filter-top-candidates']]]);
    const code = version.plan.steps[1]!;
    expect(code.uses === 'code.run' && code.with.files['filter.ts']!.sha256).toBe(FILTER_SHA256);
    expect(code.uses === 'code.run' && code.with.sandbox).toEqual({ network: 'deny', env: 'deny', fs: 'deny' });
    expect(Object.keys(version.snapshot.tools)).toEqual(['fetchCandidates', 'scoreCandidate', 'lookupBackgroundCheck']);
    expect(Object.values(version.snapshot.tools).every((hash) => /^sha256:[0-9a-f]{64}$/.test(hash))).toBe(true);
    expect(version.inputSchema).toEqual({ type: 'object', properties: { jobId: { type: 'string' } }, required: ['jobId'], additionalProperties: false });
    expect(Object.isFrozen(version) && Object.isFrozen(version.plan.steps)).toBe(true);
  });

  it('computes a missing code hash and gives equal plans equal version ids', async () => {
    const unpinned = seedPlan();
    const code = (unpinned.steps as Array<{ with: { files?: Record<string, { sha256?: string }> } }>)[1]!;
    delete code.with.files!['filter.ts']!.sha256;
    const first = await compileWorkflow(review, unpinned, { tools: registry() });
    const second = await compileWorkflow(review, seedPlan(), { tools: registry() });
    expect(first.id).toBe(second.id);
  });

  it('rejects a tool the workflow does not have', async () => {
    const error = await compileError(plan(step('fetch', { with: { tool: 'deleteEverything' } })));
    expect(error.code).toBe('unknown_tool');
    expect(error.step).toBe('fetch');
    expect(error.message).toBe("Step fetch calls unknown tool deleteEverything; the workflow's tools are: fetchCandidates, lookupBackgroundCheck, scoreCandidate");
  });

  it('rejects a cycle', async () => {
    const error = await compileError(plan(step('a', { needs: ['c'] }), step('b', { needs: ['a'] }), step('c', { needs: ['b'] }), step('d')));
    expect(error.code).toBe('cycle');
    expect(error.message).toBe('The steps a, b, c depend on each other in a cycle');
  });

  it('rejects unknown needs and duplicate ids', async () => {
    expect((await compileError(plan(step('a', { needs: ['ghost'] })))).message).toBe('Step a needs unknown step ghost');
    const duplicate = await compileError(plan(step('a'), step('a')));
    expect([duplicate.code, duplicate.message]).toEqual(['duplicate_step', 'Two steps have the id a']);
  });

  it('rejects templates that cannot resolve', async () => {
    const cases: Array<[unknown, string]> = [
      [plan(step('a', { input: { jobId: '{{ secrets.token }}' } })), 'A template in step a cannot be read: "{{ secrets.token }}" must start with input or steps.<id>.output'],
      [plan(step('a', { input: { jobId: '{{ input.jobId' } })), 'A template in step a cannot be read: "{{ input.jobId" has an unbalanced {{ or }}'],
      [plan(step('a', { input: { jobId: '{{ steps.ghost.output }}' } })), 'The template {{ steps.ghost.output }} in step a refers to unknown step ghost'],
      [
        plan(step('a'), step('b', { input: { jobId: '{{ steps.a.output.id }}' } })),
        'The template {{ steps.a.output.id }} in step b reads step a, which step b does not depend on (add it to needs)',
      ],
      [plan(step('a', { input: { jobId: '{{ input.items[x] }}' } })), 'A template in step a cannot be read: "{{ input.items[x] }}" has an invalid path at "[x]"'],
      [{ ...plan(step('a')), output: '{{ steps.b.output }}' }, 'The template {{ steps.b.output }} in the plan output refers to unknown step b'],
    ];
    for (const [bad, message] of cases) {
      const error = await compileError(bad);
      expect([error.code, error.message]).toEqual(['bad_template', message]);
    }
    // A step may read any step it depends on, also through another step.
    await expect(compileWorkflow(review, plan(step('a'), step('b', { needs: ['a'] }), step('c', { needs: ['b'], input: { jobId: '{{ steps.a.output.x }}' } })), { tools: registry() })).resolves.toBeDefined();
  });

  it('rejects a code file whose pinned hash does not match its content', async () => {
    const tampered = seedPlan();
    const code = (tampered.steps as Array<{ with: { files?: Record<string, { content: string }> } }>)[1]!;
    code.with.files!['filter.ts']!.content += '\n// tampered';
    const error = await compileError(tampered);
    expect(error.code).toBe('hash_mismatch');
    expect(error.message).toMatch(new RegExp(`^Step filter-top-candidates: filter.ts has sha256 ${FILTER_SHA256}, but its content hashes to sha256:[0-9a-f]{64}$`));
  });

  it('refuses sandbox policies the code sandbox cannot enforce', async () => {
    for (const [key, value] of [['network', 'allow'], ['env', 'allow'], ['fs', 'read'], ['fs', 'write']] as const) {
      const open = seedPlan();
      (open.steps as Array<{ with: { sandbox?: Record<string, string> } }>)[1]!.with.sandbox = { [key]: value };
      const error = await compileError(open);
      expect(error.code).toBe('unsupported_sandbox_policy');
      expect(error.message).toBe(
        `Step filter-top-candidates asks for ${key} "${value}": Ghostlight's code sandbox has no ${key} access to grant, so it cannot safely execute this code.run step`,
      );
    }
  });

  it('rejects invalid output schemas and malformed plans', async () => {
    const generate = { id: 'g', uses: 'ai.generate', with: { prompt: 'Summarise' }, output: { mode: 'object', schema: { type: 'object', properties: { a: { type: 'string' } } } } };
    const loose = await compileError(plan(generate));
    expect(loose.code).toBe('invalid_output_schema');
    expect(loose.message).toMatch(/^Step g has an output schema a model cannot fill: /);
    const badType = await compileError(plan(step('a', { output: { mode: 'object', schema: { type: 'thing' } } })));
    expect([badType.code, badType.message]).toEqual(['invalid_output_schema', 'Step a has an invalid output schema: type "thing" is not a JSON Schema type']);
    const malformed = await compileError({ version: 'workflow-plan-v1', steps: [{ id: 'a', uses: 'shell.exec', with: {} }] });
    expect(malformed.code).toBe('invalid_plan');
    expect(malformed.message).toMatch(/^The plan is not a workflow-plan-v1 document: \$\.steps\[0\]\.uses /);
  });

  it('throws WorkflowMissingToolError when the run lacks a named tool', async () => {
    const { tools } = candidateTools();
    const partial = createToolRegistry({ fetchCandidates: tools.fetchCandidates });
    const error = await compileWorkflow(review, seedPlan(), { tools: partial }).catch((caught: unknown) => caught);
    expect(WorkflowMissingToolError.isInstance(error) && MissingToolError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe("Workflow candidate-review names tool scoreCandidate, which the run's tools do not have");
  });

  it('publishes the plan format as JSON Schema', () => {
    const schema = workflowPlanJsonSchema();
    expect(schema).toMatchObject({ type: 'object', required: expect.arrayContaining(['version', 'steps']) });
    expect(JSON.stringify(schema)).toContain('"tool.call"');
    expect(JSON.stringify(schema)).toContain('"code.run"');
  });
});

describe('stored versions', () => {
  it('round-trips through JSON and refuses a changed plan or id', async () => {
    const version = await compileWorkflow(review, seedPlan(), { tools: registry() });
    const stored = JSON.parse(JSON.stringify(version)) as Record<string, unknown>;
    const loaded = await loadWorkflowVersion(stored);
    expect(loaded).toEqual(version);

    const edited = structuredClone(stored) as { plan: { steps: Array<{ input?: unknown }> } };
    edited.plan.steps[0]!.input = { jobId: 'j-other' };
    const editedError = await loadWorkflowVersion(edited).catch((caught: unknown) => caught);
    expect(WorkflowVersionError.isInstance(editedError)).toBe(true);
    expect((editedError as Error).message).toMatch(/^The workflow version's id sha256:[0-9a-f]{64} does not match its content \(sha256:[0-9a-f]{64}\)$/);

    const tampered = structuredClone(stored) as { plan: { steps: Array<{ with: { files?: Record<string, { content: string }> } }> } };
    tampered.plan.steps[1]!.with.files!['filter.ts']!.content = 'export async function run() { return { count: 99, top: [] }; }';
    const tamperedError = await loadWorkflowVersion(tampered).catch((caught: unknown) => caught);
    expect(WorkflowCompileError.isInstance(tamperedError) && tamperedError.code).toBe('hash_mismatch');

    await expect(loadWorkflowVersion({ version: 'workflow-version-v1' })).rejects.toThrow('A workflow version must be a workflow-version-v1 value made by planWorkflow');
  });
});

describe('planning', () => {
  it('shows the planner descriptions and schemas, no execute and no tools, and compiles its plan', async () => {
    const { calls, tools } = candidateTools();
    const planner = plannerModel(seedPlan());
    const version = await planWorkflow(review, { model: planner, tools: createToolRegistry(tools), strategy: 'provider' });

    expect(planner.calls).toHaveLength(1);
    const call = planner.calls[0]!;
    expect(call.tools ?? []).toEqual([]);
    expect(call.responseFormat).toMatchObject({ type: 'json', name: 'workflow_plan' });
    const prompt = promptText(call);
    expect(prompt).toContain('Workflow: candidate-review');
    expect(prompt).toContain('Description: Shortlist the strongest candidates of a job and check their backgrounds.');
    expect(prompt).toContain('"id":"fetchCandidates","description":"Fetch candidates from ATS by job id."');
    expect(prompt).toContain('"inputSchema":{"type":"object","properties":{"candidateId":{"type":"string"}},"required":["candidateId"],"additionalProperties":false}');
    expect(prompt).toContain('workflow-plan-v1');
    expect(prompt).not.toContain('EXECUTE_BODY_MARKER');
    expect(prompt).not.toContain('calls.push');
    expect(calls).toEqual([]);
    expect(version.plan.steps.map((each) => each.id)).toEqual(['fetch', 'filter-top-candidates', 'score']);
  });

  it('repairs once with the compile error, then fails with StructuredResultError', async () => {
    const bad = plan(step('a', { with: { tool: 'inventedTool' } }));
    const planner = plannerModel(bad, seedPlan());
    const version = await planWorkflow(review, { model: planner, tools: registry(), strategy: 'provider' });
    expect(planner.calls).toHaveLength(2);
    const repair = promptText(planner.calls[1]!);
    expect(repair).toContain(
      "$.plan must be a plan that compiles: Step a calls unknown tool inventedTool; the workflow's tools are: fetchCandidates, lookupBackgroundCheck, scoreCandidate",
    );
    expect(version.plan.steps).toHaveLength(3);

    const stubborn = plannerModel(bad, bad);
    const error = await planWorkflow(review, { model: stubborn, tools: registry(), strategy: 'provider' }).catch((caught: unknown) => caught);
    expect((error as Error).name).toBe('StructuredResultError');
    expect((error as Error).message).toBe('The model did not return a valid structured result after its repair turn');
  });
});
