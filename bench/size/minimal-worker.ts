// Size budget entry (scripts/bundle-sizes.mjs): the smallest useful Ghostlight Worker, one agent with one tool
// served by createAgentApp. Budget: 100 KiB gzip.
import * as v from 'valibot';
import { defineAgent, defineTool } from 'ghostlight';
import type { LanguageModel } from 'ai';
import { createAgentApp } from 'ghostlight/http';

const lookup = defineTool({
  name: 'help_center_lookup',
  description: 'Look up a help center entry by topic.',
  input: v.strictObject({ topic: v.picklist(['refunds', 'shipping']) }),
  execute: ({ topic }) => (topic === 'refunds' ? 'Refunds within 30 days.' : 'Ships in 3 to 5 days.'),
});

export default {
  fetch(request: Request, env: { MODEL: LanguageModel }): Response | Promise<Response> {
    const agent = defineAgent({ name: 'support', model: env.MODEL, tools: [lookup] });
    return createAgentApp({ agents: [agent], auth: (incoming) => ({ actorId: incoming.headers.get('x-user') ?? 'anonymous' }) }).fetch(request);
  },
};
