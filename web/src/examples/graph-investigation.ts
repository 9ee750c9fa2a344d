import { defineAgent } from 'ghostlight';
import type { Askable } from 'ghostlight';
import { defineGraph } from 'ghostlight/assemblies';
import type { Graph } from 'ghostlight/assemblies';
import type { DemoRequest, DemoTurn } from 'ghostlight/demo-model';
import type { ExampleAgent } from './example';

const ROLE = /^Role: (\w+)/;

/** The offline demo model's part for each node, chosen by the node agent's role line. */
function respond(request: DemoRequest): DemoTurn {
  const role = ROLE.exec(request.instructions)?.[1];
  const task = /Original Task:\n([^\n]*)/.exec(request.userText)?.[1] ?? request.userText;
  switch (role) {
    case 'triage':
      return { text: `Needs a billing check and a shipping check for: "${task}"` };
    case 'billing':
      return { text: 'Billing: one charge of $42.00 was captured; a duplicate authorisation is pending and drops off within 3 business days.' };
    case 'shipping':
      return { text: 'Shipping: order 481 left the warehouse yesterday; standard delivery takes 3–5 business days.' };
    default: {
      const inputs = [...request.userText.matchAll(/From (\w+):\n([^\n]+)/g)].map((match) => `- ${match[2]}`).join('\n');
      return { text: `(Offline demo model) Here is what the specialists found:\n${inputs}\nReply if anything still looks wrong.` };
    }
  }
}

/**
 * A keyless Graph: triage, then a billing and a shipping specialist at the
 * same time (an inferred fan-out and fan-in), then a writer that answers from
 * both. The diagram above the answer is drawn from `graph.toMermaid()`.
 */
export const graphInvestigationExample: ExampleAgent = {
  respond,
  diagram: (assembly: Askable) => (assembly as Graph).toMermaid(),
  create: (model) => {
    const node = (role: string, instructions: string) => defineAgent({ name: role, model, instructions: `Role: ${role}\n${instructions}` });
    return defineGraph({
      name: 'investigation',
      description: 'Triage, parallel specialists, then one written answer.',
      nodes: {
        triage: node('triage', 'Say which specialists (billing, shipping) the request needs, in one sentence.'),
        billing: node('billing', 'Answer only the billing part of the task, in one or two sentences.'),
        shipping: node('shipping', 'Answer only the shipping part of the task, in one or two sentences.'),
        writer: node('writer', 'Write the customer one short answer from the inputs of the previous nodes.'),
      },
      start: 'triage',
      edges: [
        { from: 'triage', to: 'billing' },
        { from: 'triage', to: 'shipping' },
        { from: 'billing', to: 'writer' },
        { from: 'shipping', to: 'writer' },
      ],
      finish: 'writer',
    });
  },
};
