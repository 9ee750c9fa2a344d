import { MemorySessionStore } from 'ghostlight';
import type { Agent, SessionStore } from 'ghostlight';
import { DurableObjectSessionStore } from 'ghostlight/cloudflare';
import type { DurableObjectNamespaceLike } from 'ghostlight/cloudflare';
import { createSupportAgent } from './demo-agent';
import { createAnalystAgent } from './demo-analyst';
import { createResearchTeam } from './demo-research';
import { createSurveyAgent } from './demo-survey';
import { modelFromEnv } from './model-from-env';
import type { ModelChoice } from './model-from-env';

/**
 * The demo's agents and session store, built from the Worker's environment:
 * the Worker's app and the run Durable Object (`RUNS`) build the same ones,
 * so a run hosted in its own object runs the agent the app serves.
 */
export function demoAgents(env: Record<string, unknown>): { choice: ModelChoice; agents: Agent[]; sessions: SessionStore; durableSessions: boolean } {
  const choice = modelFromEnv(env);
  const namespace = env.SESSIONS as DurableObjectNamespaceLike | undefined;
  return {
    choice,
    agents: [createSupportAgent(choice.model), createAnalystAgent(choice.model), createResearchTeam(choice.model), createSurveyAgent(choice.model, choice.offline)],
    sessions: namespace ? new DurableObjectSessionStore(namespace) : new MemorySessionStore(),
    durableSessions: namespace !== undefined,
  };
}
