import { Hono } from 'hono';
import { defineAgent } from 'ghostlight';
import type { Agent } from 'ghostlight';
import { defineRunDurableObject, durableRuns } from 'ghostlight/cloudflare';
import type { DurableObjectNamespaceLike } from 'ghostlight/cloudflare';
import { createAgentApp } from 'ghostlight/http';
import { respondingModel } from '../../test/support/scripted-model';

/** A one-turn scripted answer of 60 words: about 70 events per run (one text delta a word). */
const ANSWER = Array.from({ length: 60 }, (_, index) => `word${index}`).join(' ');

function agent(): Agent {
  return defineAgent({ name: 'chat', model: respondingModel(() => ({ text: ANSWER })) });
}

export const RunDurableObject = defineRunDurableObject(() => ({ agents: [agent()] }));

const auth = () => ({ actorId: 'bench' });
let app: Hono | undefined;

export default {
  fetch(request: Request, env: { RUNS: DurableObjectNamespaceLike }): Response | Promise<Response> {
    app ??= new Hono()
      .route('/local', createAgentApp({ agents: [agent()], auth, keepRunsMs: 600_000 }))
      .route('/', createAgentApp({ agents: [agent()], auth, runs: durableRuns(env.RUNS) }));
    return app.fetch(request);
  },
};
