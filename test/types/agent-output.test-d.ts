// Type tests: checked by `npm run typecheck` (tsc), which `npm test` runs. A wrong inference is a compile error.
import * as v from 'valibot';
import { expectTypeOf } from 'vitest';
import { defineAgent, defineTool } from 'ghostlight';
import type { Run, RunStream, ToolBinding } from 'ghostlight';
import { createOfflineDemoModel } from 'ghostlight/demo-model';
import type { SandboxView } from 'ghostlight/sandbox';
import type { Workspace } from 'ghostlight/workspace';

const model = createOfflineDemoModel();

// Without a result schema the output is the response text.
const plain = defineAgent({ name: 'plain', model });
expectTypeOf(plain.ask('hi')).resolves.toEqualTypeOf<Run<string>>();
expectTypeOf<Awaited<ReturnType<typeof plain.ask>>['output']>().toEqualTypeOf<string | undefined>();

// A valibot result schema types `run.output`, directly or inside `{ schema, name }`.
const Answer = v.strictObject({ answer: v.string(), confidence: v.nullable(v.number()) });
const structured = defineAgent({ name: 'structured', model, result: Answer });
expectTypeOf<Awaited<ReturnType<typeof structured.ask>>['output']>().toEqualTypeOf<{ answer: string; confidence: number | null } | undefined>();
const named = defineAgent({ name: 'named', model, result: { schema: Answer, name: 'answer', strategy: 'tool' } });
expectTypeOf(named.stream('hi')).toEqualTypeOf<RunStream<{ answer: string; confidence: number | null }>>();

// A plain JSON Schema cannot be inferred: the output is unknown.
const json = defineAgent({ name: 'json', model, result: { type: 'object', properties: { answer: { type: 'string' } } } });
expectTypeOf<Awaited<ReturnType<typeof json.ask>>['output']>().toEqualTypeOf<unknown>();

// Tool inputs are typed from their schema; capability entries add their collaborators to the binding.
defineTool({
  name: 'lookup',
  description: 'Look something up.',
  input: v.strictObject({ topic: v.picklist(['refunds', 'shipping']) }),
  execute(input, binding) {
    expectTypeOf(input).toEqualTypeOf<{ topic: 'refunds' | 'shipping' }>();
    expectTypeOf(binding.workspace).toEqualTypeOf<Workspace | undefined>();
    expectTypeOf(binding.sandbox).toEqualTypeOf<SandboxView | undefined>();
    return input.topic;
  },
});
expectTypeOf<ToolBinding['run']['invocation']['actorId']>().toEqualTypeOf<string | undefined>();
