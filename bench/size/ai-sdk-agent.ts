// Size comparison entry (scripts/bundle-sizes.mjs): AI SDK 7's own agent, ToolLoopAgent with one tool, bundled
// the same way. Ghostlight's minimal Worker must stay below it.
import { ToolLoopAgent, tool } from 'ai';
import type { LanguageModel } from 'ai';
import * as v from 'valibot';
import { toStandardJsonSchema } from '@valibot/to-json-schema';

const lookup = tool({
  description: 'Look up a help center entry by topic.',
  inputSchema: toStandardJsonSchema(v.strictObject({ topic: v.picklist(['refunds', 'shipping']) })),
  execute: async ({ topic }) => (topic === 'refunds' ? 'Refunds within 30 days.' : 'Ships in 3 to 5 days.'),
});

export default {
  async fetch(request: Request, env: { MODEL: LanguageModel }): Promise<Response> {
    const agent = new ToolLoopAgent({ model: env.MODEL, tools: { help_center_lookup: lookup } });
    const result = await agent.generate({ prompt: await request.text() });
    return new Response(result.text);
  },
};
