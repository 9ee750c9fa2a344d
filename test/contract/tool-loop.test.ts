import { describe, expect, it } from 'vitest';
import { ToolLoopError, defineAgent, defineTool } from 'ghostlight';
import { scriptedModel } from '../support/scripted-model';

const lookup = defineTool({
  name: 'lookup',
  description: 'Look something up.',
  input: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
  execute: ({ q }: { q: string }) => `result for ${q}`,
});

const sameCall = { toolCalls: [{ name: 'lookup', input: { q: 'same' } }] };

describe('tool-loop detection (C.16)', () => {
  it('warns on the 3rd and 4th identical call, refuses the 5th, and fails the run', async () => {
    let executions = 0;
    const counted = defineTool({ ...lookup, name: 'lookup', description: lookup.description, input: lookup.input.jsonSchema, execute: (input: { q: string }) => (executions++, `result for ${input.q}`) });
    const model = scriptedModel([sameCall, sameCall, sameCall, sameCall, sameCall, { text: 'never' }]);
    const run = await defineAgent({ name: 'loop', model, tools: [counted], detectToolLoops: true }).ask('go');
    const contents = run.steps.map((step) => step.toolResults[0]?.content);
    expect(contents[0]).toBe('result for same');
    expect(contents[1]).toBe('result for same');
    expect(contents[2]).toMatch(/^Repeated tool call detected\. Change the approach or arguments before calling this tool again\.\n\nresult for same$/);
    expect(contents[3]).toMatch(/^Final repeated tool call warning\. Calling this tool again with identical arguments and result will stop the run\.\n\n/);
    expect(contents[4]).toBe('Stopped after detecting a repeated tool-call loop in "lookup".');
    expect(executions).toBe(4);
    expect(run.outcome).toBe('failed');
    expect(ToolLoopError.isInstance(run.error)).toBe(true);
    expect(model.calls).toHaveLength(5);
    expect(run.response).toBe('Stopped after detecting a repeated tool-call loop in "lookup".');
  });

  it('resets when the arguments or the result change, and ignores excepted tools', async () => {
    let flip = 0;
    const changing = defineTool({ name: 'lookup', description: 'x', input: {}, execute: () => `r${flip++ % 2}` });
    const turns = Array.from({ length: 6 }, () => ({ toolCalls: [{ name: 'lookup', input: {} }] }));
    const run = await defineAgent({ name: 'reset', model: scriptedModel([...turns, { text: 'done' }]), tools: [changing], detectToolLoops: true }).ask('go');
    expect(run.outcome).toBe('completed');
    const excepted = await defineAgent({
      name: 'except',
      model: scriptedModel([sameCall, sameCall, sameCall, sameCall, sameCall, sameCall, { text: 'done' }]),
      tools: [lookup],
      detectToolLoops: { except: ['lookup'] },
    }).ask('go');
    expect(excepted.outcome).toBe('completed');
  });

  it('counts identical calls running in parallel once', async () => {
    const parallel = { toolCalls: [{ name: 'lookup', input: { q: 'p' } }, { name: 'lookup', input: { q: 'p' } }] };
    const run = await defineAgent({ name: 'parallel', model: scriptedModel([parallel, parallel, { text: 'done' }]), tools: [lookup], detectToolLoops: true }).ask('go');
    expect(run.outcome).toBe('completed');
    expect(run.steps[1]?.toolResults.every((result) => result.content === 'result for p')).toBe(true);
  });

  it('checks its options', () => {
    expect(() => defineAgent({ name: 'bad', model: scriptedModel([]), detectToolLoops: { warningAt: 1 } })).toThrow('warningAt must be at least 2');
    expect(() => defineAgent({ name: 'bad', model: scriptedModel([]), detectToolLoops: { warningAt: 3, terminateAt: 3 } })).toThrow('terminateAt must be greater than warningAt');
  });
});
