import * as v from 'valibot';
import { defineAgent, defineTool } from 'ghostlight';
import { createOfflineDemoModel } from 'ghostlight/demo-model';

const helpCenter = defineTool({
  name: 'help_center_lookup',
  description: 'Look up a help center entry by topic.',
  input: v.strictObject({ topic: v.picklist(['refunds', 'shipping']) }),
  execute: ({ topic }) => ({ refunds: 'Refunds within 30 days.', shipping: 'Ships in 3 to 5 days.' })[topic],
});

const agent = defineAgent({
  name: 'support',
  model: createOfflineDemoModel(), // or openai('gpt-5-mini') from @ai-sdk/openai
  instructions: 'Check the help center before answering.',
  tools: [helpCenter],
});

const run = await agent.ask('How long does shipping take?', { actorId: 'user-1' });
console.log(run.outcome, run.response);

for await (const event of agent.stream('And refunds?')) {
  if (event.type === 'tool-stop') console.log(`${event.toolName} → ${event.content}`);
}
