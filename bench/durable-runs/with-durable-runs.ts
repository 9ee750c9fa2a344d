// Bundle cost of durable runs (bench/durable-runs.bench.ts): http-only.ts plus durableRuns and the run Durable Object.
import { defineAgent } from '../../src/index.ts';
import type { LanguageModel } from 'ai';
import { defineRunDurableObject, durableRuns } from '../../src/adapter/cloudflare/index.ts';
import type { DurableObjectNamespaceLike } from '../../src/adapter/cloudflare/index.ts';
import { createAgentApp } from '../../src/http/index.ts';

export const RunDurableObject = defineRunDurableObject((env: { MODEL: LanguageModel }) => ({ agents: [defineAgent({ name: 'support', model: env.MODEL })] }));

export default {
  fetch(request: Request, env: { MODEL: LanguageModel; RUNS: DurableObjectNamespaceLike }): Response | Promise<Response> {
    const agent = defineAgent({ name: 'support', model: env.MODEL });
    return createAgentApp({ agents: [agent], auth: () => ({ actorId: 'anonymous' }), runs: durableRuns(env.RUNS) }).fetch(request);
  },
};
