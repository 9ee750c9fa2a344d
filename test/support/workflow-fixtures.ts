import { jsonSchema, tool } from 'ai';
import * as v from 'valibot';
import { defineTool } from 'ghostlight';
import type { Tool } from 'ghostlight';

/** Seed 002's candidate data. */
export const CANDIDATES = [
  { id: 'c1', name: 'Ada', resume: 'Compilers', score: 0.95 },
  { id: 'c2', name: 'Brian', resume: 'Databases', score: 0.42 },
  { id: 'c3', name: 'Chen', resume: 'Networks', score: 0.88 },
];

/** Seed 002's tools, as AI SDK `tool()` values (the seed's form) and Ghostlight tools; `calls` counts executions. */
export function candidateTools(options: { scoreDescription?: string } = {}) {
  const calls: string[] = [];
  const fetchCandidates = tool({
    description: 'Fetch candidates from ATS by job id.',
    inputSchema: jsonSchema<{ jobId: string }>({ type: 'object', properties: { jobId: { type: 'string' } }, required: ['jobId'], additionalProperties: false }),
    outputSchema: jsonSchema({
      type: 'object',
      properties: { candidates: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' }, resume: { type: 'string' }, score: { type: 'number' } } } } },
    }),
    execute: async ({ jobId }) => {
      calls.push(`fetchCandidates:${jobId}`); // EXECUTE_BODY_MARKER
      return { candidates: CANDIDATES };
    },
  });
  const scoreCandidate: Tool = defineTool({
    name: 'scoreCandidate',
    description: options.scoreDescription ?? 'Score one candidate from 0 to 1.',
    input: v.strictObject({ candidateId: v.string() }),
    output: v.strictObject({ candidateId: v.string(), score: v.number() }),
    execute: async ({ candidateId }) => {
      calls.push(`scoreCandidate:${candidateId}`);
      return { candidateId, score: CANDIDATES.find((candidate) => candidate.id === candidateId)?.score ?? 0 };
    },
  }) as Tool;
  const lookupBackgroundCheck: Tool = defineTool({
    name: 'lookupBackgroundCheck',
    description: 'Look up the background check of a candidate.',
    input: v.strictObject({ candidateId: v.string() }),
    execute: async ({ candidateId }) => {
      calls.push(`lookupBackgroundCheck:${candidateId}`);
      return { candidateId, clear: candidateId !== 'c3' };
    },
  }) as Tool;
  return { calls, tools: { fetchCandidates, scoreCandidate, lookupBackgroundCheck } };
}

/** Seed 002's `code.run` file, exactly as the seed pins it. */
export const FILTER_SOURCE =
  'export async function run({ input, tools }) {\n  const { candidates } = await tools.fetchCandidates({ jobId: input.jobId });\n  const filtered = candidates.filter((c) => c.score > 0.8);\n  const enriched = await Promise.all(\n    filtered.map((c) => tools.lookupBackgroundCheck({ candidateId: c.id })),\n  );\n  return { count: enriched.length, top: enriched.slice(0, 5) };\n}';

/** The seed's `sha256:` of {@link FILTER_SOURCE}. */
export const FILTER_SHA256 = 'sha256:8cf724f6f08ce056655852300621c42cff6eee61c79082dcb02f45e1b8646f26';

/** Seed 002's `code.run` step, as written in the seed. */
export const SEED_CODE_STEP = {
  id: 'filter-top-candidates',
  uses: 'code.run',
  needs: ['fetch'],
  with: {
    entrypoint: 'filter.ts',
    files: { 'filter.ts': { content: FILTER_SOURCE, sha256: FILTER_SHA256 } },
    sandbox: { network: 'deny', env: 'deny', fs: 'deny' },
  },
  input: { jobId: '{{ input.jobId }}' },
  output: { mode: 'object', schema: { type: 'object', properties: { count: { type: 'integer' }, top: { type: 'array' } } } },
};

/** A plan over the seed's tools: fetch, then the seed's code step, then a scoring call per top candidate's id. */
export function seedPlan(): Record<string, unknown> {
  return structuredClone({
    version: 'workflow-plan-v1',
    steps: [
      { id: 'fetch', uses: 'tool.call', with: { tool: 'fetchCandidates' }, input: { jobId: '{{ input.jobId }}' } },
      SEED_CODE_STEP,
      { id: 'score', uses: 'tool.call', needs: ['filter-top-candidates'], with: { tool: 'scoreCandidate' }, input: { candidateId: '{{ steps.filter-top-candidates.output.top[0].candidateId }}' } },
    ],
    output: { count: '{{ steps.filter-top-candidates.output.count }}', best: '{{ steps.score.output }}' },
  });
}
