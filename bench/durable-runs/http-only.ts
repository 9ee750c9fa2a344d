// Bundle-cost baseline (bench/durable-runs.bench.ts): one agent served by createAgentApp, runs in the isolate.
import { defineAgent } from '../../src/index.ts';
import type { LanguageModel } from 'ai';
import { createAgentApp } from '../../src/http/index.ts';

export default {
  fetch(request: Request, env: { MODEL: LanguageModel }): Response | Promise<Response> {
    const agent = defineAgent({ name: 'support', model: env.MODEL });
    return createAgentApp({ agents: [agent], auth: () => ({ actorId: 'anonymous' }) }).fetch(request);
  },
};
