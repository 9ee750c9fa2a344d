import { defineAgent } from 'ghostlight';
import type { Askable } from 'ghostlight';
import { defineSwarm, HANDOFF_TOOL_NAME, mermaidId } from 'ghostlight/assemblies';
import type { Swarm } from 'ghostlight/assemblies';
import type { DemoRequest, DemoTurn } from 'ghostlight/demo-model';
import type { ExampleAgent } from './example';

const ROLE = /^Role: (\w+)/;

/** The offline demo model's part: triage hands off by topic; the specialists answer. */
function respond(request: DemoRequest): DemoTurn {
  const role = ROLE.exec(request.instructions)?.[1];
  const handoff = request.tools.some((tool) => tool.name === HANDOFF_TOOL_NAME);
  if (role === 'triage' && handoff && request.toolResults.length === 0) {
    const billing = /charge|refund|bill|invoice|paid|payment/i.test(request.userText);
    return {
      text: 'Routing your request…',
      toolCalls: [{ toolName: HANDOFF_TOOL_NAME, input: { agent_id: billing ? 'billing' : 'shipping', message: request.userText, context: { priority: /urgent|asap/i.test(request.userText) ? 'high' : 'normal' } } }],
    };
  }
  if (role === 'billing') return { text: '(Offline demo model, billing desk) I see one captured charge and one pending authorisation that will drop off within 3 business days, so you were not charged twice.' };
  if (role === 'shipping') return { text: '(Offline demo model, shipping desk) Order 481 is on its way: it left the warehouse yesterday and standard delivery takes 3–5 business days.' };
  return { text: '(Offline demo model) I could not route that.' };
}

/** A swarm's routes in the Mermaid notation `toMermaid()` uses for graphs (drawn the same way). */
function swarmDiagram(swarm: Swarm): string {
  const lines = ['flowchart TD', ...swarm.members.map((id) => `  ${mermaidId(id)}[${id}]`), `  START((start)) --> ${mermaidId(swarm.start)}`];
  for (const id of swarm.members) for (const target of swarm.routesFrom(id)) lines.push(`  ${mermaidId(id)} -->|handoff| ${mermaidId(target)}`);
  return lines.join('\n');
}

/**
 * A Swarm with handoffs: triage hands the request to the billing or the
 * shipping desk with `handoff_to_agent`; only the member that answers
 * streams (triage's routing text stays hidden).
 */
export const swarmHandoffsExample: ExampleAgent = {
  respond,
  diagram: (assembly: Askable) => swarmDiagram(assembly as Swarm),
  create: (model) => {
    const member = (role: string, instructions: string) => defineAgent({ name: role, model, instructions: `Role: ${role}\n${instructions}` });
    return defineSwarm({
      name: 'desks',
      description: 'Triage hands off to a billing or a shipping desk.',
      members: {
        triage: { agent: member('triage', 'Hand the request to the billing or the shipping desk with handoff_to_agent. Never answer yourself.'), description: 'routes requests' },
        billing: { agent: member('billing', 'Answer billing questions (charges, refunds) in two sentences.'), description: 'charges and refunds' },
        shipping: { agent: member('shipping', 'Answer shipping questions (orders, delivery) in two sentences.'), description: 'orders and delivery' },
      },
      start: 'triage',
      handoffs: { triage: ['billing', 'shipping'], billing: ['triage'], shipping: ['triage'] },
    });
  },
};
